/** The API contract (contract-suite.ts), part 1 of 2: the parts run side by side in Vitest's workers. */
import { contractSuite } from './contract-suite.ts';

contractSuite(0, 2);
