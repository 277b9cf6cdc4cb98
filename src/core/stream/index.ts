// The live odds stream client: the only code that holds server-sent events connections to the service.
export * from './client';
