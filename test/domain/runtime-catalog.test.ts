import { describe, expect, it } from 'vitest';
import { RUNTIME_IDS } from '../../src/domain/catalog.js';
import { findRuntime, RUNTIMES, withInstalledPlaywright } from '../../src/domain/runtime-catalog.js';

describe('runtime catalogue', () => {
  it('describes every runtime id of the API exactly once, newest first', () => {
    expect(RUNTIMES.map((r) => r.name)).toEqual([...RUNTIME_IDS]);
  });

  it.each(RUNTIME_IDS.map((id) => [id]))('gives runtime %s a Node.js version in dependencies.node (the checkly CLI reads it there)', (id) => {
    const runtime = findRuntime(id)!;
    expect(runtime.dependencies.node).toBe(runtime.nodeJsVersion.replace(/^v/, ''));
    expect(runtime.dependencies).toHaveProperty('@playwright/test');
  });

  it('marks 2026.04 and 2025.04 CURRENT and every older runtime DEPRECATED', () => {
    expect(Object.fromEntries(RUNTIMES.map((r) => [r.name, r.stage]))).toEqual({
      '2026.04': 'CURRENT', '2025.04': 'CURRENT', '2024.09': 'DEPRECATED', '2024.02': 'DEPRECATED',
      '2023.09': 'DEPRECATED', '2023.02': 'DEPRECATED', '2022.10': 'DEPRECATED',
    });
  });

  it('lets 2026.04 import every package 2025.04 allows', () => {
    expect(Object.keys(findRuntime('2026.04')!.dependencies).sort()).toEqual(Object.keys(findRuntime('2025.04')!.dependencies).sort());
  });

  it('knows no runtime by an unknown id', () => {
    expect(findRuntime('latest')).toBeUndefined();
  });

  it('says every runtime carries the installed Playwright, in each Playwright package it lists', () => {
    const old = withInstalledPlaywright(findRuntime('2022.10')!, '1.65.1');
    expect(old.dependencies).toMatchObject({ '@playwright/test': '1.65.1', playwright: '1.65.1' });
    expect(old.dependencies).not.toHaveProperty('playwright-core');
    expect(old.dependencies.typescript).toBe(findRuntime('2022.10')!.dependencies.typescript);
  });
});
