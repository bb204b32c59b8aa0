// How a command ends: its exit code, or 2 with the message of a tool error (a RelayMockError says
// what to do); anything else is a bug and is thrown.
import pc from 'picocolors'
import { RelayMockError } from '../core/errors.js'

/**
 * Runs a command's work and sets process.exitCode from it.
 * @example await exitWith(() => serve(args))
 */
export async function exitWith(work: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await work()
  } catch (error) {
    if (!(error instanceof RelayMockError)) throw error
    console.error(pc.red(error.message))
    process.exitCode = 2
  }
}
