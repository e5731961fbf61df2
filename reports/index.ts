// The gate report: evidence in (`results.json`), gates computed, reports out.

export type { FirstFailure, GateRunInput, MutantEvidence, ScenarioEvidence, SuiteEvidence } from '../campaign/gates/evidence.ts';
export type { GateDefinition, GateProofs } from './gate-definition.ts';
export type { GateEvidence, GateResult, GateStatus, MutantProof, ScenarioProof, SuiteProof } from './gate-status.ts';
export { GATE_CATALOGUE } from './gate-catalogue.ts';
export { computeGates } from './gate-status.ts';
export { GateInputError, loadResults, saveResults } from './results-file.ts';
export { writeReports, type WrittenReports } from './write-reports.ts';
export { runVerdict, verdictLine, type RunVerdict, type RunVerdictStatus, type VerdictItem } from './run-verdict.ts';
export { gatesDocument } from './render/gates-json.ts';
