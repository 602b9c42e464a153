// zod schemas, types and constants of the backups domain (filled in by its issue).
export {};
