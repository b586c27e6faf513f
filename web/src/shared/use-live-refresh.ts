import { useEffect, useRef } from 'react';
import { useSubscription } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { useOnReconnect } from '../shell/connection-context.js';

/** Status changes: the CheckStatus they carry updates, through the normalized cache, every row showing it. */
const StatusChanges = graphql(`
  subscription ConsoleStatusChanges {
    checkStatusChanged {
      checkId
      previous
      current
      checkStatus { checkId health hasFailures hasErrors isDegraded longestRun updatedAt }
    }
  }
`);

/** Final results: lists re-read their sparklines and counts. */
const ResultsCreated = graphql(`
  subscription ConsoleResultsCreated {
    checkResultCreated(filter: { resultType: FINAL }) {
      checkId
      result { id hasFailures responseTime }
    }
  }
`);

/**
 * Calls `refresh` (throttled to once per `intervalMs`) when a check of the account changes state or
 * gets a final result, so lists and counts follow the account live; statuses themselves update at
 * once through the cache. Also calls it once the live socket is back after a drop: events missed
 * meanwhile are not replayed.
 */
export function useLiveRefresh(refresh: () => void, intervalMs = 1000): void {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  const schedule = () => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      refreshRef.current();
    }, wait);
  };
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  useOnReconnect(schedule);
  useSubscription({ query: StatusChanges }, (_previous, event) => {
    schedule();
    return event;
  });
  useSubscription({ query: ResultsCreated }, (_previous, event) => {
    schedule();
    return event;
  });
}
