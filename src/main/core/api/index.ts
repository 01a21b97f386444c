export * from './client.ts';
export * from './errors.ts';
export * from './paging.ts';
export type { HttpPolicy, RetryInfo } from './http.ts';
export { Limiter } from './limiter.ts';
export { redactText, redactUrl } from './redact.ts';
export type * from '../../../shared/service/schemas.ts';
