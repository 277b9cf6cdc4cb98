// The rule lab over a recorded profile: its store file read through the lab's own read-only connection
// (../store/queries/lab.ts) as the run's source of matches. One call, for the CLI's `report rules` and the handler.
import type { RuleLabResult } from '../../shared/ruleLab';
import { openLabReads, type LabFilter } from '../store/queries/lab';
import { runRuleLab, type LabRunOptions } from './run';

export async function labOfFile(
  path: string,
  filter: LabFilter,
  o: LabRunOptions & { nativeBinding?: string },
): Promise<RuleLabResult> {
  const reads = openLabReads(path, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {});
  try {
    return await runRuleLab({ span: () => reads.span(filter), events: () => reads.events(filter) }, o);
  } finally {
    reads.close();
  }
}
