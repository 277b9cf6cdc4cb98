// The key of one market line in the store: `${eventId}:${lineId}`. Its own module because both the watchlist slice
// (which stores lines by it) and the line history slice (which keeps charts by it) need it, and each imports the
// other's code otherwise.
export const marketKey = (eventId: number, lineId: number): string => `${eventId}:${lineId}`;
