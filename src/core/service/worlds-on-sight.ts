// A proxy's worlds: the world of a token the upstream is asked for, made on first sight.
import { UPSTREAM_SCENARIO, type WorldsOnSight } from './forward.js'
import type { World } from './world.js'
import type { Worlds } from './worlds.js'

/**
 * The world of a token on first sight, for a proxy: a real token is not one the service was started
 * with, so each gets a world of its own the first time it comes (reaching only its own traffic, as on
 * `serve`), with no records of its own. A world made so takes its room among the worlds (`maxWorlds`)
 * once the upstream answers one of its requests with anything but 401 or 403; one whose answers all
 * refuse the token is forgotten. So tokens the service does not know take no world, and never push
 * out the world of one it knows. Until then at most `maxWorlds` such worlds stand, the oldest dropped.
 */
export function createWorldsOnSight(worlds: Worlds, maxWorlds: number): WorldsOnSight {
  const pending = new Map<string, Promise<World | undefined>>()
  /** Made on sight, oldest first, and not yet answered but with a refusal of their token. */
  const provisional = new Set<World>()
  return {
    of(token) {
      const known = worlds.byToken.get(token)
      if (known) return known
      let made = pending.get(token)
      if (!made) {
        made = worlds.add({ token, scenario: UPSTREAM_SCENARIO, roomLater: true }).then(
          (world) => {
            provisional.add(world)
            if (provisional.size > maxWorlds) {
              const oldest = provisional.values().next().value as World
              provisional.delete(oldest)
              worlds.remove(oldest)
            }
            return world
          },
          () => undefined,
        )
        pending.set(token, made)
        void made.then(() => pending.delete(token))
      }
      return made
    },
    answered(world, status) {
      if (provisional.delete(world) && worlds.byToken.get(world.token) === world) {
        const accepted = status !== 401 && status !== 403
        if (!accepted || !worlds.makeRoom(world)) worlds.remove(world)
      }
      return worlds.byToken.get(world.token) === world
    },
  }
}
