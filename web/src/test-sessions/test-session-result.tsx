import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { formatDuration } from '../shared/format-duration.js';
import { Link } from '../shared/link.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { useAssetUrl } from '../shared/use-asset-url.js';
import { resultErrorMessage } from './result-error-message.js';
import { testSessionPath } from './test-session-route.js';
import { AssertionTable } from '../checks/assertion-table.js';

const SessionResultQuery = graphql(`
  query ConsoleTestSessionResult($testSessionId: ID!, $resultId: ID!) {
    testSession(id: $testSessionId) { id testSessionId name }
    testSessionResult(testSessionId: $testSessionId, resultId: $resultId) {
      testSessionId
      assets { type name path contentType }
      result {
        id resultId name checkType resultType startedAt responseTime runLocation hasFailures hasErrors isDegraded attempts
        errors { code message }
        assertions { source property comparison target actual passed error }
        apiCheckResult {
          requestError
          response { status statusText }
          jobLog { setup { time level message } request { time level message } teardown { time level message } }
        }
        browserCheckResult { errors { code message } jobLog { time level message } }
        multiStepCheckResult { errors { code message } jobLog { time level message } }
      }
    }
  }
`);

/** One result of a test session (the CLI's "View result" link): outcome, errors, assertions, log and files. */
export function TestSessionResult({ testSessionId, resultId }: { testSessionId: string; resultId: string }) {
  const [{ data, error }] = useQuery({ query: SessionResultQuery, variables: { testSessionId, resultId } });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading the result…</p>;
  const found = data.testSessionResult;
  const back = <p><Link to={testSessionPath(testSessionId)}>← {data.testSession?.name ?? 'Test session'}</Link></p>;
  if (!found) return <section>{back}<h1>Result not found</h1><p>No result {resultId} in this test session of the signed-in account.</p></section>;
  const { result, assets } = found;
  const api = result.apiCheckResult;
  const script = result.browserCheckResult ?? result.multiStepCheckResult;
  const logs = api ? [...api.jobLog.setup, ...api.jobLog.request, ...api.jobLog.teardown] : script?.jobLog ?? [];
  const message = resultErrorMessage(result);
  const outcome = result.hasFailures ? 'failed' : result.isDegraded ? 'degraded' : 'passed';
  return (
    <section aria-labelledby="session-result-title">
      {back}
      <h1 id="session-result-title">{result.name}: {outcome}</h1>
      <dl className="settings card">
        <dt>Type</dt><dd>{result.checkType}</dd>
        <dt>Location</dt><dd>{result.runLocation}</dd>
        <dt>Duration</dt><dd>{formatDuration(result.responseTime)}</dd>
        <dt>Started</dt><dd>{formatRelativeTime(result.startedAt)}</dd>
        <dt>Attempts</dt><dd>{result.attempts}</dd>
        {api?.response && <><dt>Response</dt><dd>HTTP {api.response.status} {api.response.statusText}</dd></>}
        {message && <><dt>Error</dt><dd className="form-error">{message}</dd></>}
      </dl>
      <AssertionTable assertions={result.assertions} className="card" />
      {logs.length > 0 && (
        <details className="card">
          <summary>Log ({logs.length} lines)</summary>
          <pre className="log">{logs.map((l) => `${l.time} ${l.level ?? ''} ${l.message}`).join('\n')}</pre>
        </details>
      )}
      <section className="card" aria-labelledby="assets-title">
        <h2 id="assets-title">Files</h2>
        {assets.length === 0 ? <p className="muted">This result has no files.</p> : (
          <ul className="plain-list" aria-label="Files of the result">
            {assets.map((a) => <li key={a.path}><AssetFile path={a.path} name={a.name} type={a.type} contentType={a.contentType ?? null} /></li>)}
          </ul>
        )}
      </section>
    </section>
  );
}

/**
 * A file of the result: asset routes need the API key, so it is fetched with it and offered from a
 * blob URL (screenshots are shown inline).
 */
function AssetFile({ path, name, type, contentType }: { path: string; name: string; type: string; contentType: string | null }) {
  const { url, failed } = useAssetUrl(path);
  const label = <>{name} <span className="muted">{type}</span></>;
  if (failed) return <span>{label} <span className="muted">could not be loaded</span></span>;
  if (!url) return <span aria-busy="true">{label}</span>;
  return (
    <>
      <a href={url} download={name}>{label}</a>
      {(contentType ?? '').startsWith('image/') && <figure><img src={url} alt={`Screenshot ${name}`} className="screenshot" /></figure>}
    </>
  );
}
