// External-effect intent states (seed 000 §59–§61) and per-operation retry safety (§191–§193).

export type EffectState = 'Planned' | 'Started' | 'Succeeded' | 'Failed' | 'Unknown' | 'Reconciled';

export type RetrySafety = 'Idempotent' | 'ProviderIdempotent' | 'InspectBeforeRetry' | 'ManualOnly';

export const EFFECT_STATES: ReadonlyArray<EffectState> = [
  'Planned',
  'Started',
  'Succeeded',
  'Failed',
  'Unknown',
  'Reconciled',
];

export const RETRY_SAFETIES: ReadonlyArray<RetrySafety> = [
  'Idempotent',
  'ProviderIdempotent',
  'InspectBeforeRetry',
  'ManualOnly',
];
