// zod schemas, types and constants of the audit-log domain (filled in by its issue).
export {};
