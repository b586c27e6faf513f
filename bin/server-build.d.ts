// Types of server-build.js (plain JavaScript: bin/lookout.js runs it without a TypeScript loader).

/** The package root (the folder holding package.json, src/ and dist/). */
export const ROOT: string;
/** How to build, as the one line a stale or missing build prints. */
export const BUILD_HINT: string;
/** Why dist/ cannot be run as it is (missing, or older than src/), or null when it is current. */
export function serverBuildProblem(): string | null;
/** Compiles src/ to dist/ file by file and copies the files the server reads; resolves to the number of modules. */
export function buildServer(): Promise<number>;
/** Builds dist/ when it is missing or stale; resolves to whether it built. */
export function ensureServerBuild(): Promise<boolean>;
