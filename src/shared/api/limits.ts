// The caps on what one upstream answer may cost us (issue 36): the work of validating, logging and storing a response
// is bounded by its size in bytes (MAX_RESPONSE_BYTES, MAX_STREAM_MESSAGE_BYTES in ./spec) and by these counts, never
// by what it contains. A page of a million malformed records is refused after a few hundred, with one summary problem,
// instead of a million problem objects and log lines. The numbers are ours (the spec states none); docs/limits.md says
// them in words. Change them here only.
import { SETTLED_LIMIT } from './spec';

export const RESPONSE_LIMITS = {
  /**
   * Problems kept in detail (each its own object and log line) per response, per walk of /api/settled, per stream
   * message. The rest are counted into one summary problem: a trader reads the first few; a thousand say nothing more.
   */
  problemsShown: 20,
  /**
   * Bad records after which the rest of a response is not read: a broken or hostile answer is refused from there with
   * one problem, and the good records read before it are kept. 200 of a full settled page (1,000) is a feed that is
   * broken, not one with a stray record.
   */
  badRecords: 200,
  /**
   * Records one /api/settled page may carry: the spec's largest `limit`. A page with more breaks the contract; the
   * records past the cap are not read (one problem says how many).
   */
  settledPageRecords: SETTLED_LIMIT.max,
  /**
   * Records of any other list (/api/fixtures of a whole book is the largest, some 100,000 events in 22 MB), and
   * markets of one stream message (1 MiB holds some 5,000).
   */
  listRecords: 100_000,
  /** Settlement lines of one settled match: every main line of every period is some 200 (spec.ts, MAX_RESPONSE_BYTES). */
  settlementLines: 2_000,
  /**
   * Characters of any text field the service sends (names, labels, times, market words). The longest real one is a
   * league or special name of some 100 characters; a record with a longer text is refused with that reason, so a
   * 4 MB league name never reaches the store, the screen or a log line.
   */
  textChars: 1_000,
  /** Zod issues described in one record's problem (a record with a million bad contestants is still one line). */
  issuesPerProblem: 3,
} as const;
