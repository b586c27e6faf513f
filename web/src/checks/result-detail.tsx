import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { useAssetUrl } from '../shared/use-asset-url.js';
import { formatDuration } from '../shared/format-duration.js';
import { timingPhaseRows } from './timing-phases.js';
import { AssertionTable } from './assertion-table.js';

const ResultQuery = graphql(`
  query ConsoleResult($id: ID!) {
    checkResult(id: $id) {
      id
      __typename
        startedAt responseTime runLocation hasFailures hasErrors isDegraded attempts
        errors { code message }
        assertions { source property comparison target actual passed error }
        apiCheckResult {
          requestError
          response { status statusText timingPhases { dns tcp tls firstByte download wait total } }
          jobLog { setup { time level message } request { time level message } teardown { time level message } }
          jobAssets { name type contentType path }
        }
        browserCheckResult { errors { code message stack } jobLog { time level message } jobAssets { name type contentType path } }
        multiStepCheckResult { errors { code message stack } jobLog { time level message } jobAssets { name type contentType path } }
    }
  }
`);

/** One result (its global id, or `checkId:resultId` as alert links name it): timing phases, assertions, errors, logs and screenshots. */
export function ResultDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: ResultQuery, variables: { id } });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading the result…</p>;
  const result = data.checkResult ?? null;
  if (!result) return <p>The result is no longer stored.</p>;
  const api = result.apiCheckResult;
  const script = result.browserCheckResult ?? result.multiStepCheckResult;
  const phases = timingPhaseRows(api?.response?.timingPhases);
  const logs = api ? [...api.jobLog.setup, ...api.jobLog.request, ...api.jobLog.teardown] : script?.jobLog ?? [];
  const assets = api?.jobAssets ?? script?.jobAssets ?? [];
  const errors = [...result.errors, ...(script?.errors ?? [])];
  return (
    <article className="result" aria-label="Selected result">
      <h3>Run from {result.runLocation}: {result.hasFailures ? 'failed' : result.isDegraded ? 'degraded' : 'passed'} in {formatDuration(result.responseTime)}
        {api?.response && <span className="muted"> · HTTP {api.response.status} {api.response.statusText}</span>}</h3>
      {api?.requestError && !errors.some((e) => e.message === api.requestError) && <p className="form-error">{api.requestError}</p>}
      {phases.length > 0 && (
        <table className="phases" aria-label="Timing phases">
          <tbody>
            {phases.map((phase) => (
              <tr key={phase.name}>
                <th scope="row">{phase.label}</th>
                <td><span className="phase-bar" style={{ marginLeft: `${phase.offsetPercent}%`, width: `${Math.max(phase.widthPercent, 0.5)}%` }} /></td>
                <td className="num">{formatDuration(phase.ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AssertionTable assertions={result.assertions} />
      {errors.length > 0 && <ul className="plain-list" aria-label="Errors">{errors.map((e, i) => <li key={i} className="form-error"><strong>{e.code}</strong> {e.message}</li>)}</ul>}
      {logs.length > 0 && (
        <details>
          <summary>Log ({logs.length} lines)</summary>
          <pre className="log">{logs.map((l) => `${l.time} ${l.level ?? ''} ${l.message}`).join('\n')}</pre>
        </details>
      )}
      {assets.filter((a) => (a.contentType ?? '').startsWith('image/')).map((a) => <AssetImage key={a.path} path={a.path} name={a.name} />)}
    </article>
  );
}

/** A screenshot of a run, fetched with the API key (asset routes need it) and shown from a blob URL. */
function AssetImage({ path, name }: { path: string; name: string }) {
  const { url: src, failed } = useAssetUrl(path);
  if (failed) return <p className="muted">Screenshot {name} could not be loaded.</p>;
  return src ? <figure><img src={src} alt={`Screenshot ${name}`} className="screenshot" /><figcaption>{name}</figcaption></figure> : null;
}
