// zod schemas, types and constants of the brokerages domain (filled in by its issue).
export {};
