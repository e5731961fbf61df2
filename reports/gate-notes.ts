// Notes shared by gate rows that nothing in the testbed can prove.

export const NOT_MODELLED = 'Nothing in the testbed models this yet.';
export const OUTSIDE = 'A property of the deployed product, outside this testbed.';
