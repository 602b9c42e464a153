// zod schemas, types and constants of the courses domain (filled in by its issue).
export {};
