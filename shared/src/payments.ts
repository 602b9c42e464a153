// zod schemas, types and constants of the payments domain (filled in by its issue).
export {};
