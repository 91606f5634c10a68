export * from './constants.ts';
export * from './rules/password.ts';
export * from './rules/access.ts';
export * from './schemas/common.ts';
export * from './schemas/auth.schema.ts';
export * from './rules/batch-status.ts';
export * from './rules/warnings.ts';
