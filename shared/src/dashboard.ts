// zod schemas, types and constants of the dashboard domain (filled in by its issue).
export {};
