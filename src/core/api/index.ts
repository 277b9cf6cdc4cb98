// The upstream API client and its request governor: the only code that calls the service over HTTP.
export * from './client';
export * from './governor';
export * from './types';
export { scrub, pathLabel } from './errors';
