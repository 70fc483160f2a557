"""Train a small policy against the `random` bot on cuttle.rl.VectorEnv, numpy only.

    python examples/train_vector_env.py                 # about three minutes
    python examples/train_vector_env.py --minutes 10 --envs 2048
    python examples/train_vector_env.py --threads 1 --updates 200 --eval-games 1000

Advantage actor-critic (A2C) with a shared hidden layer: 1,024 games are stepped
together natively, the agent taking a seat that alternates by episode.  The policy
scores only the legal actions of each position (the compact action space's mask), so
an action costs one dot product with that action's learned embedding.  Every few
updates it prints the win rate of the episodes that finished meanwhile (the policy
samples its moves) with a 95% interval, then a final evaluation of its greedy
(most likely) moves against `--eval-games` fresh games, exactly (each env plays its
share, so that short games are not favoured).  `--threads N` steps the games on N
threads (default: VectorEnv's choice, as many as prove fastest); results do not depend
on it.  `--updates N` stops after N updates instead of `--minutes`.  It needs nothing
beyond cuttle and numpy.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from cuttle import wilson_interval  # noqa: E402
from cuttle.rl import ACTION_SPACE, OBSERVATION_SIZE, VectorEnv  # noqa: E402


def legal_pairs(mask):
    """(rows, cols, starts): every legal (env, action) pair, env-major, and where each
    env's pairs start (every env has at least one legal action)."""
    rows, cols = np.nonzero(mask)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    return rows, cols, starts


class Policy:
    """h = relu(obs W1 + b1); logit(a) = h . E[a] + c[a] over the legal actions;
    value = h . wv + bv."""

    def __init__(self, rng, hidden):
        self.p = {
            "W1": (rng.standard_normal((OBSERVATION_SIZE, hidden)) * np.sqrt(2 / 60)
                   ).astype(np.float32),        # ~60 of the inputs are non-zero
            "b1": np.zeros(hidden, np.float32),
            "E": np.zeros((ACTION_SPACE, hidden), np.float32),
            "c": np.zeros(ACTION_SPACE, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, obs, rows, cols, starts):
        p = self.p
        pre = obs @ p["W1"] + p["b1"]
        h = np.maximum(pre, 0)
        logit = np.einsum("ij,ij->i", h[rows], p["E"][cols]) + p["c"][cols]
        top = np.maximum.reduceat(logit, starts)
        e = np.exp(logit - top[rows])
        prob = e / np.add.reduceat(e, starts)[rows]
        value = h @ p["wv"] + p["bv"][0]
        return pre, h, logit, prob, value

    def act(self, obs, mask, rng, greedy=False):
        rows, cols, starts = legal_pairs(mask)
        _, _, logit, _, _ = self.forward(obs, rows, cols, starts)
        score = logit if greedy else logit - np.log(-np.log(rng.random(len(logit))))
        best = np.maximum.reduceat(score, starts)
        hit = np.flatnonzero(score == best[rows])
        _, first = np.unique(rows[hit], return_index=True)
        return cols[hit[first]]

    def update(self, obs, pairs, chosen, returns, lr, entropy=0.01, value_coef=0.5):
        """One A2C step on a batch: obs (N, OBS), pairs = legal_pairs of its masks,
        chosen[i] = the index (into the pairs) of the action taken in row i."""
        rows, cols, starts = pairs
        n = len(obs)
        pre, h, logit, prob, value = self.forward(obs, rows, cols, starts)
        adv = returns - value
        adv_n = (adv - adv.mean()) / (adv.std() + 1e-8)
        logp = np.log(prob + 1e-12)
        ent = -np.add.reduceat(prob * logp, starts)
        # d(loss)/d(logit): policy gradient, then the entropy bonus.
        onehot = np.zeros_like(prob)
        onehot[chosen] = 1.0
        dlogit = -(adv_n[rows] * (onehot - prob)) / n
        dlogit += entropy * prob * (logp + ent[rows]) / n
        dvalue = value_coef * 2 * (value - returns) / n
        g = {}
        hr = h[rows]
        weighted = dlogit[:, None] * hr
        g["E"] = np.stack([np.bincount(cols, weights=weighted[:, k], minlength=ACTION_SPACE)
                           for k in range(h.shape[1])], axis=1).astype(np.float32)
        g["c"] = np.bincount(cols, weights=dlogit, minlength=ACTION_SPACE).astype(np.float32)
        dh = np.add.reduceat(dlogit[:, None] * self.p["E"][cols], starts, axis=0)
        dh += dvalue[:, None] * self.p["wv"]
        g["wv"] = h.T @ dvalue
        g["bv"] = np.array([dvalue.sum()], np.float32)
        dpre = dh * (pre > 0)
        g["W1"] = obs.T @ dpre
        g["b1"] = dpre.sum(axis=0)
        self._adam(g, lr)
        return float(ent.mean()), float(np.mean(adv ** 2))

    def _adam(self, grads, lr, b1=0.9, b2=0.999):
        self.t += 1
        for k, grad in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            mhat = self.m[k] / (1 - b1 ** self.t)
            vhat = self.v[k] / (1 - b2 ** self.t)
            self.p[k] -= (lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


def rollout(env, policy, obs, steps, rng):
    """`steps` steps of every env: the batch for one update."""
    batch_obs, batch_pairs, batch_chosen, rewards, dones = [], [], [], [], []
    for _ in range(steps):
        mask = env.action_masks()
        rows, cols, starts = legal_pairs(mask)
        actions = policy.act(obs, mask, rng)
        chosen = np.flatnonzero(cols == actions[rows])   # one pair per env
        batch_obs.append(obs)
        batch_pairs.append((rows, cols, starts))
        batch_chosen.append(chosen)
        obs, rew, term, trunc, _ = env.step(actions)
        rewards.append(rew)
        dones.append(term | trunc)
    return obs, batch_obs, batch_pairs, batch_chosen, np.array(rewards), np.array(dones)


def concat_pairs(pairs_list, n_envs):
    rows, cols, starts, offset = [], [], [], 0
    for t, (r, c, s) in enumerate(pairs_list):
        rows.append(r + t * n_envs)
        cols.append(c)
        starts.append(s + offset)
        offset += len(c)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(starts)


def evaluate(policy, n_envs, games, seed, rng, threads=None):
    """(wins, games) of the greedy (argmax: the most probable legal action, not sampled)
    policy against random over exactly `games` fresh games: env i counts only its
    first quota[i] episodes, its share of `games` (counting episodes as they end, until
    there are enough, would favour short games and overshoot)."""
    n_envs = min(n_envs, games)
    quota = np.full(n_envs, games // n_envs)
    quota[:games % n_envs] += 1
    env = VectorEnv(n_envs, opponent="random", seat=None, threads=threads, copy=False)
    obs, _ = env.reset(seed)
    ended = np.zeros(n_envs, np.int64)
    wins = 0
    while (ended < quota).any():
        obs, rew, term, trunc, _ = env.step(policy.act(obs, env.action_masks(), rng,
                                                       greedy=True))
        done = term | trunc
        wins += int((rew[done & (ended < quota)] > 0).sum())
        ended += done
    return wins, int(quota.sum())


def count(text):
    """argparse's type for a count: an int of at least 1."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--updates", type=count, default=None,
                    help="stop after this many updates (default: when --minutes is up)")
    ap.add_argument("--envs", type=count, default=1024)
    ap.add_argument("--steps", type=int, default=16, help="steps per env per update")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=count, default=4000,
                    help="games of the final evaluation, exactly")
    ap.add_argument("--threads", type=count, default=None,
                    help="threads stepping the games (default: VectorEnv's choice, as many "
                         "as prove fastest; results do not depend on it)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = VectorEnv(args.envs, rules=args.rules, opponent="random", seat=None,
                    threads=args.threads)
    policy = Policy(rng, args.hidden)
    obs, _ = env.reset(args.seed)
    start = time.perf_counter()
    update = wins = played = 0
    transitions = 0
    print(f"{args.envs} envs vs random, {args.rules} rules; win rate of the episodes "
          f"finished since the last line (sampled moves), 95% interval")
    while (update < args.updates if args.updates is not None
           else time.perf_counter() - start < 60 * args.minutes):
        obs, b_obs, b_pairs, b_chosen, rewards, dones = rollout(env, policy, obs,
                                                                 args.steps, rng)
        # Returns: terminal rewards, bootstrapped with the value where the batch stops.
        _, _, _, _, last_value = policy.forward(obs, *legal_pairs(env.action_masks()))
        ret = np.empty_like(rewards)
        running = last_value
        for t in range(args.steps - 1, -1, -1):
            running = rewards[t] + np.where(dones[t], 0.0, running)
            ret[t] = running
        pairs = concat_pairs(b_pairs, args.envs)
        offsets = np.cumsum([0] + [len(p[1]) for p in b_pairs[:-1]])
        chosen = np.concatenate([c + o for c, o in zip(b_chosen, offsets)])
        ent, _ = policy.update(np.concatenate(b_obs), pairs, chosen,
                               ret.reshape(-1).astype(np.float32), args.lr)
        update += 1
        transitions += args.steps * args.envs
        wins += int((rewards[dones] > 0).sum())
        played += int(dones.sum())
        if update % 20 == 0:
            est = wilson_interval(wins, played)
            print(f"{time.perf_counter() - start:6.0f}s  update {update:4d}  "
                  f"{transitions / 1e6:5.1f}M steps  episodes {played:6d}  win rate "
                  f"{est.value:6.1%} [{est.low:.1%}, {est.high:.1%}]  entropy {ent:.2f}",
                  flush=True)
            wins = played = 0
    w, n = evaluate(policy, args.envs, args.eval_games, args.seed + 1, rng, args.threads)
    est = wilson_interval(w, n)
    print(f"final greedy (argmax) policy vs random: {w}/{n} = {est.value:.1%} "
          f"[{est.low:.1%}, {est.high:.1%}] (95%); a random agent wins about half")


if __name__ == "__main__":
    main()
