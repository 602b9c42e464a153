// zod schemas, types and constants of the licenses domain (filled in by its issue).
export {};
