import { PGlite } from '@electric-sql/pglite';
const mb = () => Math.round(process.memoryUsage().rss / 1048576);
console.log('base', mb());
const opt = process.argv[2] === 'small' ? { startParams: undefined as any } : {};
const p = await PGlite.create('memory://', process.argv[2] === 'small' ? { postgresqlconf: ['shared_buffers=16MB'] } as any : {});
console.log('pglite', mb(), (await p.query("show shared_buffers")).rows, (await p.query("show work_mem")).rows);
await p.query('select 1');
console.log('after', mb());
