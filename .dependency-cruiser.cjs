// @ts-check
/**
 * The import order of src/ (README "Architecture"), checked by `npm run lint`: each layer of ORDER
 * imports only the layers before it; `events` and `config.ts` sit beside `domain`; `graphql` reaches
 * only `events`, `domain` and the generated contract; `metrics` (beside `api`) reads only `domain`
 * and `events`; the process entries (`main.ts`, `cli.ts`, `write-openapi.ts`, the `agent/` process)
 * are imported by no layer. No file cycle anywhere. test/lint/layers.test.ts proves each rule bites.
 */
const ORDER = ['domain', 'contract', 'store', 'runner', 'service', 'jobs', 'api'];
const ENTRIES = '^src/(main|cli|write-openapi|default-node-env)[.]ts$';

/** @param {string[]} names */
const folders = (names) => `^src/(${names.join('|')})/`;

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const layerRules = ORDER.map((layer, i) => ({
  name: `${layer}-imports-only-lower-layers`,
  comment: `${layer} may import ${ORDER.slice(0, i).join(', ') || 'nothing of src/'}${i > 0 ? ', events and config' : ''}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: {
    path: [folders([...ORDER.slice(i + 1), 'graphql', 'agent', ...(layer === 'api' ? [] : ['metrics'])]), ENTRIES,
      ...(i === 0 ? [folders(['events']), '^src/config[.]ts$'] : [])],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'contract-reads-no-settings',
      comment: 'the contract is the same whatever the settings: it may import domain and events only',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/config[.]ts$' },
    },
    {
      name: 'events-beside-domain',
      comment: 'events (the bus and its event shapes) may import only domain',
      severity: 'error',
      from: { path: '^src/events/' },
      to: { path: '^src/', pathNot: '^src/(events|domain)/' },
    },
    {
      name: 'config-beside-domain',
      comment: 'config.ts parses settings; it may import only domain',
      severity: 'error',
      from: { path: '^src/config[.]ts$' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/config[.]ts$'] },
    },
    {
      name: 'graphql-reaches-events-domain-and-generated-contract',
      comment: 'the GraphQL layer talks to the service over REST only: it may import events, domain and the generated contract',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/', pathNot: ['^src/(graphql|events|domain)/', '^src/contract/__generated__/'] },
    },
    {
      name: 'metrics-reads-domain-and-events',
      comment: 'metrics observe the edges: they may import domain and events only',
      severity: 'error',
      from: { path: '^src/metrics/' },
      to: { path: '^src/', pathNot: '^src/(metrics|domain|events)/' },
    },
    {
      name: 'agent-runs-checks-only',
      comment: 'an agent is a runner in another process: it may import domain, contract, events, config and runner',
      severity: 'error',
      from: { path: '^src/agent/' },
      to: { path: folders(['store', 'service', 'jobs', 'api', 'graphql', 'metrics']) },
    },
    {
      name: 'entries-are-imported-by-entries-only',
      comment: 'main.ts, cli.ts and write-openapi.ts start processes; no layer imports them',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: ENTRIES },
    },
    {
      name: 'no-file-cycle',
      comment: 'a cycle of files means a concept split in the wrong place: move the shared part down',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable-import',
      comment: 'an import that resolves to nothing hides a dependency from these rules',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
  },
};
