// Notes shared by gate rows that nothing in the testbed can prove.

export const NOT_MODELLED = 'Nothing in the testbed models this yet.';
export const OUTSIDE = 'A property of the deployed product, outside this testbed.';
/** Why the rows about the product's own deployment cannot be tested by any run here. */
export const DOGFOOD = OUTSIDE + ' Whether the product runs its own production on these primitives is a fact about how it is built and deployed; a run of the testbed observes a store and a simulated cluster, never the product.';
