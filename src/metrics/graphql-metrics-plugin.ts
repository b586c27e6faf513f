import { performance } from 'node:perf_hooks';
import type { ApolloServerPlugin } from '@apollo/server';
import type { Metrics } from './create-metrics.js';

/**
 * Times each GraphQL operation served over HTTP into `lookout_graphql_operation_duration_seconds`,
 * by operation type (`unknown` when the document never parsed or named no operation) and outcome
 * (`error` when the answer carries any error). Operation names are callers' free text: not a label.
 */
export function graphqlMetricsPlugin(metrics: Pick<Metrics, 'graphqlOperationDuration'>): ApolloServerPlugin {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, response, errors }) {
          const failed = (errors?.length ?? 0) > 0
            || (response.body.kind === 'single' && (response.body.singleResult.errors?.length ?? 0) > 0);
          metrics.graphqlOperationDuration.observe(
            { operation_type: operation?.operation ?? 'unknown', outcome: failed ? 'error' : 'success' },
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}
