// The upstream service contract: paths, parameter names, limits, record schemas, time format.
export * from './spec';
export * from './limits';
export * from './time';
export * from './schemas';
