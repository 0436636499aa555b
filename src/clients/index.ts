/**
 * The HTTP clients of steward: the only code that makes requests (STYLE.md, Layout).
 */
export * from './errors.ts';
export * from './http.ts';
export * from './observability.ts';
export * from './cloud.ts';
export { redact, createRedactor, REDACTED } from './redact.ts';
export { summarizeErrorBody } from './error-body.ts';
export { checkResponse, checkRequest, loadApiSchema, type ResponseShape } from './validate.ts';
export { RateLimiter, Semaphore } from './limiter.ts';
