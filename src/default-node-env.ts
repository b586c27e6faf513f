// Imported first by the CLI: graphql-js reads NODE_ENV when it loads, and outside `production` it
// runs a development check on every type test of every resolved field. `lookout serve` is how the
// service runs in production; an explicit NODE_ENV still wins.
process.env.NODE_ENV ??= 'production';
