/** `npm run db:migrate`: apply pending migrations to the configured database (the server also does this at start). */
import { loadConfig } from '../config.ts';
import { closeDatabase, ENGINE, openDatabase } from './client.ts';

const config = loadConfig();
const db = await openDatabase(config);
await closeDatabase(db);
console.log(`Migrations applied to ${ENGINE === 'postgres' ? 'the PostgreSQL database' : config.databasePath}`);
