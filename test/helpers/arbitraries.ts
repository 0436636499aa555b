import fc from 'fast-check';

/**
 * Documents as YAML and JSON make them: plain objects and arrays of strings, numbers (the values JSON cannot
 * say among them), booleans and null, with sparse arrays; dates and null-prototype objects where asked.
 */
export function plainData(o: { withDate: boolean; withNullPrototype: boolean }): fc.Arbitrary<unknown> {
  return fc.anything({
    withBoxedValues: false,
    withMap: false,
    withSet: false,
    withTypedArray: false,
    withBigInt: false,
    withDate: o.withDate,
    withSparseArray: true,
    withNullPrototype: o.withNullPrototype,
  });
}
