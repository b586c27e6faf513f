/** The assets of a result as `checkly assets list` reads them. */
export const AssetManifest = {
  $id: 'AssetManifest',
  type: 'object',
  required: ['assets', 'truncated', 'entriesReturned', 'entriesTotal'],
  properties: {
    assets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'name', 'url', 'source'],
        properties: {
          type: { type: 'string', enum: ['log', 'trace', 'video', 'screenshot', 'pcap', 'report', 'file'] },
          name: { type: 'string' },
          url: { type: 'string', description: 'On this API (relative): fetch it with the API key' },
          contentType: { type: 'string' },
          source: { type: 'string' },
        },
      },
    },
    truncated: { type: 'boolean' },
    entriesReturned: { type: 'integer' },
    entriesTotal: { type: 'integer' },
  },
};

/** A result's log (`{setup, request, teardown}` of API checks, an array of lines otherwise) or its check-run data. */
export const RunAsset = {
  $id: 'RunAsset',
  description: 'The log or check-run data of a result, as the checkly CLI prints it',
  anyOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: { type: 'object', additionalProperties: true } }],
};

/** Schemas of this file registered as named components. */
export const ASSET_MANIFEST_VIEW_SCHEMAS = [AssetManifest, RunAsset];
