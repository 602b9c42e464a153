// zod schemas, types and constants of the notifications domain (filled in by its issue).
export {};
