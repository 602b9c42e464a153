export * from './roles.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './settings.ts';
export * from './domain-constants.ts';
export * from './dates.ts';
