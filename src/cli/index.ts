// `npm run cli -- <command>`: the headless entry. Every command runs the core (or the simulator) without Electron.
import { Command, InvalidArgumentError } from 'commander';
import { runWeb } from './web';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

const program = new Command()
  .name('oddsdesk')
  .description('Oddsdesk headless commands')
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program
  .command('web')
  .description('Run the app in a browser: start the core and the bridge, print the URL to open')
  .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', port, 5185)
  .option('--base-url <url>', 'upstream service (key from ODDSDESK_API_KEY); omitted = demo on the built-in simulator')
  .action(async (opts: { port: number; baseUrl?: string }) => {
    await runWeb({ port: opts.port, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}) });
  });

program
  .command('sim')
  .description('Run the upstream simulator (see src/sim/CONTROL.md)')
  .allowUnknownOption()
  .helpOption(false)
  .argument('[args...]')
  .action(async (args: string[]) => {
    const { runSimCli } = await import('../sim/cli');
    await runSimCli(args);
  });

await program.parseAsync(process.argv);
