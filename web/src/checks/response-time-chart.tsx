import { useCallback, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useClient } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { formatDuration } from '../shared/format-duration.js';
import { useLiveRefresh } from '../shared/use-live-refresh.js';
import { RUN_CHART_RANGES, runChartFrom, toRunSeries, type RunChartRange, type RunPoint, type RunSeries } from './run-series.js';
import './checks-extras.css';

/** Pages of 100 runs read at most for one chart (a check every 10 s from 4 locations fills a day with 35,000). */
export const MAX_RUN_PAGES = 20;

const RunsQuery = graphql(`
  query ConsoleCheckRuns($id: ID!, $from: DateTime!, $after: String) {
    check(id: $id) {
      id
      results(first: 100, after: $after, filter: { from: $from, resultType: FINAL }) {
        pageInfo { hasNextPage endCursor }
        nodes { id startedAt responseTime hasFailures }
      }
    }
  }
`);

/** Every final run of the window, newest pages first, up to MAX_RUN_PAGES; `truncated` when more exist. */
function useRuns(id: string, range: RunChartRange): { runs: RunPoint[] | null; truncated: boolean; error: string | null } {
  const client = useClient();
  const [state, setState] = useState<{ runs: RunPoint[] | null; truncated: boolean; error: string | null }>({ runs: null, truncated: false, error: null });
  const [generation, setGeneration] = useState(0);
  useLiveRefresh(useCallback(() => setGeneration((g) => g + 1), []), 5000);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const from = runChartFrom(range, Date.now()).toISOString();
      const runs: RunPoint[] = [];
      let after: string | null = null;
      for (let page = 0; page < MAX_RUN_PAGES; page++) {
        const answer = await client.query(RunsQuery, { id, from, after }, { requestPolicy: 'network-only' }).toPromise();
        if (cancelled) return;
        const results: { pageInfo: { hasNextPage: boolean; endCursor?: string | null }; nodes: RunPoint[] } | undefined = answer.data?.check?.results;
        if (answer.error || !results) {
          setState((s) => ({ ...s, error: answer.error?.message ?? 'The check was not found.' }));
          return;
        }
        runs.push(...results.nodes);
        after = results.pageInfo.hasNextPage ? results.pageInfo.endCursor ?? null : null;
        if (!after) break;
      }
      setState({ runs, truncated: after !== null, error: null });
    })();
    return () => { cancelled = true; };
  }, [client, id, range, generation]);
  return state;
}

/**
 * Response time of every run of a check over the last hour or day, failed runs marked, with time and
 * millisecond ticks; a sentence says the same for screen readers.
 */
export function ResponseTimeChart({ id }: { id: string }) {
  const [range, setRange] = useState<RunChartRange>('hour');
  const { runs, truncated, error } = useRuns(id, range);
  const series = runs ? toRunSeries(runs) : null;
  const failures = series ? series.failed.filter((v) => v !== null).length : 0;
  return (
    <div>
      <div className="range-toggle" role="group" aria-label="Chart window">
        {(Object.keys(RUN_CHART_RANGES) as RunChartRange[]).map((key) => (
          <button key={key} type="button" className="button button--small" aria-pressed={range === key} onClick={() => setRange(key)}>{RUN_CHART_RANGES[key].label}</button>
        ))}
      </div>
      {error && <p className="form-error" role="alert">Could not read the runs: {error}</p>}
      {!series ? <p aria-busy="true" className="muted">Loading runs…</p>
        : series.xs.length === 0 ? <p className="muted">No runs in the {RUN_CHART_RANGES[range].label.toLowerCase()}.</p>
          : <RunPlot series={series} range={range}
            label={`Response time of ${series.xs.length} runs over the ${RUN_CHART_RANGES[range].label.toLowerCase()}${failures ? `, ${failures} failed` : ''}${truncated ? ' (the latest runs only)' : ''}`} />}
      {truncated && <p className="hint">Only the latest {series?.xs.length} runs of this window are drawn.</p>}
    </div>
  );
}

function RunPlot({ series, range, label }: { series: RunSeries; range: RunChartRange; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const axisColor = getComputedStyle(el).color;
    const grid = { stroke: 'rgba(128,128,128,0.2)' };
    const to = Date.now() / 1000;
    const plot = new uPlot({
      width: Math.max(280, el.clientWidth), height: 220,
      scales: { x: { time: true, range: [to - RUN_CHART_RANGES[range].ms / 1000, to] }, y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] } },
      series: [
        { value: (_u, v) => (v === null ? '–' : new Date(v * 1000).toLocaleString()) },
        { label: 'Response time', stroke: '#2f80ed', width: 1.5, points: { show: true, size: 4 }, spanGaps: true, value: (_u, v) => formatDuration(v) },
        { label: 'Failed', stroke: '#d64545', width: 0, points: { show: true, size: 7, fill: '#d64545' }, paths: () => null, value: (_u, v) => formatDuration(v) },
      ],
      axes: [
        { stroke: axisColor, grid, label: 'Time' },
        { stroke: axisColor, grid, label: 'Response time', size: 70, values: (_u, vals) => vals.map((v) => formatDuration(v)) },
      ],
    }, [series.xs, series.all, series.failed] as uPlot.AlignedData, el);
    return () => plot.destroy();
  }, [series, range]);
  return <div ref={ref} className="chart" role="img" aria-label={label} data-runs={series.xs.length} />;
}
