// Runs shell commands side by side and waits for all of them: `node scripts/together.mjs "a" "b && c"`.
// Each one's output is printed whole when it ends (never interleaved); the exit status is the first
// failure's, or 0. `npm test` runs its checks this way: each is one single-threaded process (tsc,
// dependency-cruiser), so two at a time keep both cores of a small machine busy.
import { spawn } from 'node:child_process'

const commands = process.argv.slice(2)
if (commands.length === 0) {
  console.error('Usage: node scripts/together.mjs "<command>" ["<command>" ...]')
  process.exit(2)
}

const ends = commands.map(
  (command) =>
    new Promise((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] })
      const output = []
      child.stdout.on('data', (chunk) => output.push(chunk))
      child.stderr.on('data', (chunk) => output.push(chunk))
      child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)))
      child.on('close', (code, signal) => {
        process.stdout.write(`> ${command}\n${Buffer.concat(output).toString()}`)
        if (code !== 0) process.stdout.write(`(${command} ended with ${signal ?? `exit ${code}`})\n`)
        resolve(code ?? 1)
      })
    }),
)
const codes = await Promise.all(ends)
process.exitCode = codes.find((code) => code !== 0) ?? 0
