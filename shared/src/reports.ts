// zod schemas, types and constants of the reports domain (filled in by its issue).
export {};
