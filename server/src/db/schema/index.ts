/**
 * The tables services query. Today the SQLite definitions; the data layer selects the active dialect's
 * tables here (docs/architecture.md "Data layer").
 */
export * from './sqlite/index.ts';
