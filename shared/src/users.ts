// zod schemas, types and constants of the users domain (filled in by its issue).
export {};
