// A counterexample as numbered steps: what was sent, by which process, at which store time, what
// the store was told of processes and the database, and — on the step where the store and the
// reference model part — both answers.

import type { StepRecord } from './step-record.ts';
import { describeEvent } from './lifecycle-step.ts';
import type { CheckStep } from './steps.ts';

export function describeStep(step: CheckStep): string {
  switch (step.kind) {
    case 'command':
      return step.call === undefined ? step.command.kind : `${step.command.kind} by ${step.call.node}${step.call.earlier ? ' (its previous process)' : ''}`;
    case 'advance':
      return `clock +${step.ms} ms`;
    case 'to-expiry':
      return `clock to expiry #${step.pick + 1}${step.offsetMs < 0 ? ' - 1 ms' : step.offsetMs > 0 ? ' + 1 ms' : ''}`;
    case 'skew':
      return `caller clock skew ${step.ms} ms`;
    case 'lifecycle':
      return step.event === 'database-crash' ? 'database crash' : `${step.event} ${step.node}`;
    case 'snapshot':
      return 'snapshot the store';
    case 'restore':
      return 'restore the last snapshot';
  }
}

/** The step as it ran: the process that made the call, the events the store was told. */
function describeRecord(record: StepRecord): string {
  if (record.command !== undefined && record.call !== undefined) return `${record.command.kind} by ${record.call.process}`;
  if (record.events !== undefined) return record.events.map(describeEvent).join(', ');
  return describeStep(record.step);
}

/** `{"kind":"Acquire","scope":…}` without the kind, which the line already names. */
function argumentsOf(record: StepRecord): string {
  if (record.command === undefined) return '';
  const { kind: _kind, ...rest } = record.command;
  return ` ${JSON.stringify(rest)}`;
}

export function formatCounterexample(records: ReadonlyArray<StepRecord>): string[] {
  const lines: string[] = [];
  const last = records.length - 1;
  for (const [i, record] of records.entries()) {
    const note = record.note === undefined ? '' : `  (${record.note})`;
    lines.push(`  ${record.index}. t=${record.atMs} ${describeRecord(record)}${argumentsOf(record)}${note}`);
    if (i === last && 'actual' in record) {
      lines.push(`     store: ${JSON.stringify(record.actual)}`);
      lines.push(`     model: ${JSON.stringify(record.expected)}`);
    } else if (record.command !== undefined || record.events !== undefined) {
      if ('expected' in record) lines.push(`     -> ${JSON.stringify(record.expected)}`);
    }
  }
  return lines;
}
