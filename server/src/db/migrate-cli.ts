/** `npm run db:migrate`: apply pending migrations to DATABASE_PATH (the server also does this at start). */
import { loadConfig } from '../config.ts';
import { closeDatabase, openDatabase } from './client.ts';

const config = loadConfig();
const db = openDatabase(config.databasePath);
closeDatabase(db);
console.log(`Migrations applied to ${config.databasePath}`);
