// zod schemas, types and constants of the completions domain (filled in by its issue).
export {};
