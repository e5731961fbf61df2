// Notes shared by gate rows that nothing in the testbed can prove.

export const NOT_MODELLED = 'Nothing in the testbed models this yet.';
export const RAFT_INTERNALS = 'Raft internals are not simulated. ' + NOT_MODELLED;
export const OUTSIDE = 'A property of the deployed product, outside this testbed.';
