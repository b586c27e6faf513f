import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';

/**
 * A minimal query page served at GET /graphql to browsers: an API key field, an operation, variables
 * and the JSON answer. Everything is inline; nothing is loaded from another origin (Apollo's default
 * pages load their code from a CDN). The key stays in the page; requests carry it as `Authorization`.
 */
export const LANDING_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'">
<title>Lookout GraphQL</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; }
textarea, input { font: 13px ui-monospace, monospace; width: 100%; box-sizing: border-box; }
pre { background: #f4f4f4; padding: 1em; overflow: auto; min-height: 4em; }
label { display: block; margin-top: 1em; font-weight: 600; }
</style>
</head>
<body>
<h1>Lookout GraphQL</h1>
<p>Send operations to this endpoint with your API key. Schema: run an introspection query, or read <code>schema/*.graphql</code> in the repository.</p>
<form id="form">
<label for="key">API key</label><input id="key" type="password" autocomplete="off" placeholder="lo_…">
<label for="query">Operation</label><textarea id="query" rows="12">{
  viewer { name plan }
  checks(first: 10) { totalCount nodes { id name checkType activated } }
}</textarea>
<label for="variables">Variables (JSON)</label><textarea id="variables" rows="3">{}</textarea>
<p><button type="submit">Run</button></p>
</form>
<pre id="result"></pre>
<script>
document.getElementById('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const out = document.getElementById('result');
  try {
    const variables = JSON.parse(document.getElementById('variables').value || '{}');
    const res = await fetch(location.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: 'Bearer ' + document.getElementById('key').value },
      body: JSON.stringify({ query: document.getElementById('query').value, variables }),
    });
    out.textContent = res.status + '\\n' + JSON.stringify(await res.json(), null, 2);
  } catch (err) {
    out.textContent = String(err);
  }
});
</script>
</body>
</html>
`;

/** The landing page plugin: the local page above when enabled, none at all otherwise. */
export function landingPagePlugin(enabled: boolean): ApolloServerPlugin {
  if (!enabled) return ApolloServerPluginLandingPageDisabled();
  return {
    async serverWillStart() {
      return { async renderLandingPage() {
        return { html: LANDING_PAGE_HTML };
      } };
    },
  };
}
