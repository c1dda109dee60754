import { Context } from 'mingo/core';
import { Query } from 'mingo/query';
import * as queryOperators from 'mingo/operators/query';
import type { Filter } from './port';

/**
 * The query operators alone, made once. mingo's default `Query` copies every operator table it has (expressions,
 * pipelines, accumulators...) into a new context for each query it builds: two thirds of a query's cost, paid by every
 * find of the read stores, on the booking path too. Filters here use query operators only.
 */
const QUERY_CONTEXT = Context.init({ query: queryOperators });

/** A filter's test of one document, mingo's query semantics (MongoDB's). */
export function matcher(filter: Filter): Query {
  return new Query(filter, { context: QUERY_CONTEXT });
}
