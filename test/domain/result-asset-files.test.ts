import { describe, expect, it } from 'vitest';
import { assetFilesOf, isAssetFileName } from '../../src/domain/result-asset-files.js';

const file = '0b6a2c1e-8f3d-4c55-9a1b-2d3e4f5a6b7c.png';

describe('asset files of a result', () => {
  it('lists the files of the browser and multi-step parts', () => {
    const other = '1b6a2c1e-8f3d-4c55-9a1b-2d3e4f5a6b7c.jpeg';
    expect(assetFilesOf({ browserCheckResult: { jobAssets: [{ file }] }, multiStepCheckResult: { jobAssets: [{ file: other }] } })).toEqual([file, other]);
  });

  it('lists the step screenshots of the agentic part', () => {
    expect(assetFilesOf({ agenticCheckResult: { steps: [{ screenshot: file }], jobAssets: [{ name: 'step-2-navigate.png', file }] } })).toEqual([file]);
  });

  it.each([
    ['no parts', {}],
    ['null parts', { browserCheckResult: null, multiStepCheckResult: null }],
    ['jobAssets that is not a list', { browserCheckResult: { jobAssets: 'x' } }],
    ['a file that climbs out of the folder', { browserCheckResult: { jobAssets: [{ file: '../../etc/passwd' }] } }],
    ['a file that is not an asset name', { browserCheckResult: { jobAssets: [{ file: 'final.png' }] } }],
  ])('lists nothing for %s', (_name, detail) => {
    expect(assetFilesOf(detail)).toEqual([]);
  });

  it.each([[file, true], ['checkly-storage', false], ['.hidden', false], [`${file}/x`, false]])('knows %s is an asset file name: %s', (name, yes) => {
    expect(isAssetFileName(name)).toBe(yes);
  });
});
