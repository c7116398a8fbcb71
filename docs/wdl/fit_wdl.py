#!/usr/bin/env python3
"""Fits sanqi's win/draw/loss model from `sanqi datagen` self-play data, the way Stockfish does.

Input lines: `<fen> | <score> | <result>`, score (cp) and result (1.0/0.5/0.0) from the FIRST
player's point of view. Both are turned to the side to move's view here.

Model (Stockfish's): for score s (cp, side to move) and material m,
    p_win  = 1 / (1 + exp((a(m) - s) / b(m)))
    p_loss = 1 / (1 + exp((a(m) + s) / b(m)))
    p_draw = 1 - p_win - p_loss
with a, b polynomials in x = clamp(m, LO, HI) / REF, evaluated as Stockfish does:
    a(x) = ((A[0] * x + A[1]) * x + A[2]) * x + A[3]      (highest power first)
Material m is read from the FEN's board field, letters case-insensitive:
    chess:   P=1 N=3 B=3 R=5 Q=9 (K=0)
    xiangqi: R=9 N=4 H=4 C=5 P=1 A=2 B=2 E=2 (K=0)
Chinese checkers has no material term: a and b are constants.

The fit is the maximum likelihood of the game results over all positions (L-BFGS-B, analytic
gradient), degree by degree from the constant fit. Per-material fits are printed next to the
polynomials as a check of the shape.

usage: fit_wdl.py --game chess|xiangqi|chinesecheckers [--degree N] [--lo L --hi H --ref R]
                  [--max-abs-score CP] [--bin-step CP --bin-max CP] DATAFILE...
"""

import argparse
import sys

import numpy as np
from scipy.optimize import minimize

WEIGHTS = {
    "chess": {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0},
    "xiangqi": {"r": 9, "n": 4, "h": 4, "c": 5, "p": 1, "a": 2, "b": 2, "e": 2, "k": 0},
}
# Default clamp / reference (LO, HI, REF): HI is the start position's material, REF = HI so that
# x <= 1; LO was chosen by the log-loss of the cubic fit on sanqi's 5000-node self-play (chess:
# 3, 5, 8, 10, 14, 17 tried, lower is better, 5 clamps about 1% of positions; xiangqi: 6, 10,
# 14, 20 tried, 14 best).
DEFAULT_RANGE = {
    "chess": (5, 78, 78),
    "xiangqi": (14, 98, 98),
}


# ---------------------------------------------------------------------------------------------
# Reading the data


def material(board, weights):
    return sum(weights.get(ch, 0) for ch in board.lower())


def read(game, files, max_abs):
    weights = WEIGHTS.get(game)
    scores, results, mats = [], [], []
    bad = 0
    for name in files:
        with open(name) as f:
            for line in f:
                parts = line.split("|")
                if len(parts) != 3:
                    bad += 1
                    continue
                fen = parts[0].split()
                try:
                    score = int(parts[1])
                    result = float(parts[2])
                except ValueError:
                    bad += 1
                    continue
                if game == "chinesecheckers":
                    # `<board> <players> <to-move> [<ply>]`: the first player is the first letter
                    # of the players field.
                    first_to_move = fen[2] == fen[1][0]
                    m = 0
                else:
                    first_to_move = fen[1] == "w"
                    m = material(fen[0], weights)
                if not first_to_move:
                    score = -score
                    result = 1.0 - result
                if max_abs is not None and abs(score) > max_abs:
                    continue
                scores.append(score)
                # 2 win, 1 draw, 0 loss (side to move)
                results.append(2 if result > 0.75 else (0 if result < 0.25 else 1))
                mats.append(m)
    if bad:
        print(f"warning: {bad} unreadable line(s) skipped", file=sys.stderr)
    return (np.array(scores, dtype=np.float64), np.array(results, dtype=np.int8),
            np.array(mats, dtype=np.float64))


# ---------------------------------------------------------------------------------------------
# The model


def softplus(z):
    return np.logaddexp(0.0, z)


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


EPS_A = 1e-6


def loglik_ab(s, y, A, B, grad=False):
    """Per-position log-likelihood of outcome y (2 win, 1 draw, 0 loss) given a=A, b=B
    (arrays), and optionally its derivatives with respect to A and B."""
    A = np.maximum(A, EPS_A)
    ll = np.empty_like(s)
    dA = np.zeros_like(s) if grad else None
    dB = np.zeros_like(s) if grad else None

    # A win at score s and a loss at -s are the same: log sigmoid(v), v = (+-s - A) / B.
    for outcome, sign in ((2, 1.0), (0, -1.0)):
        m = y == outcome
        if m.any():
            v = (sign * s[m] - A[m]) / B[m]
            ll[m] = -softplus(-v)  # log sigmoid(v)
            if grad:
                q = sigmoid(-v)
                dA[m] = -q / B[m]
                dB[m] = -q * v / B[m]
    d = y == 1
    if d.any():
        # p_draw = sigmoid(u) - sigmoid(v), u = (t + A)/B, v = (t - A)/B, t = |s| (symmetric)
        #        = exp(-v) (1 - exp(-2A/B)) / ((1 + exp(-u)) (1 + exp(-v)))
        t = np.abs(s[d])
        Ad, Bd = A[d], B[d]
        u = (t + Ad) / Bd
        v = (t - Ad) / Bd
        r = 2.0 * Ad / Bd
        ll[d] = -v + np.log(-np.expm1(-r)) - softplus(-u) - softplus(-v)
        if grad:
            dv = -1.0 + sigmoid(-v)
            du = sigmoid(-u)
            dr = 1.0 / np.expm1(r)
            dA[d] = (-dv + du + 2.0 * dr) / Bd
            dB[d] = (-dv * v - du * u - dr * r) / Bd
    return ll, dA, dB


def probs(s, A, B):
    A = np.maximum(A, EPS_A)
    pw = sigmoid((s - A) / B)
    pl = sigmoid((-s - A) / B)
    return pw, 1.0 - pw - pl, pl


def polyval(c, x):
    """Horner, highest power first (Stockfish's order)."""
    r = np.zeros_like(x) + c[0]
    for k in c[1:]:
        r = r * x + k
    return r


def fit_const(s, y, init=(100.0, 100.0)):
    """MLE of constant a, b (log-parametrised so that both stay positive)."""
    n = len(s)

    def f(p):
        A = np.full(n, np.exp(p[0]))
        B = np.full(n, np.exp(p[1]))
        ll, dA, dB = loglik_ab(s, y, A, B, grad=True)
        return -ll.sum() / n, -np.array([(dA * A).sum(), (dB * B).sum()]) / n

    r = minimize(f, np.log(np.array(init)), jac=True, method="L-BFGS-B")
    return float(np.exp(r.x[0])), float(np.exp(r.x[1])), r


def fit_poly(s, y, x, degree, init_a, init_b):
    n = len(s)
    d1 = degree + 1
    powers = np.vstack([x ** (degree - k) for k in range(d1)])  # highest first

    def f(p):
        A = polyval(p[:d1], x)
        B = polyval(p[d1:], x)
        # Floors keep the model defined while the optimizer wanders (zero gradient there).
        okA = A > EPS_A
        okB = B > 1.0
        ll, dA, dB = loglik_ab(s, y, np.where(okA, A, EPS_A), np.where(okB, B, 1.0), grad=True)
        dA *= okA
        dB *= okB
        g = np.concatenate([powers @ dA, powers @ dB])
        return -ll.sum() / n, -g / n

    p0 = np.concatenate([init_a, init_b])
    r = minimize(f, p0, jac=True, method="L-BFGS-B",
                 options={"maxiter": 20000, "maxfun": 50000, "ftol": 0.0, "gtol": 1e-10,
                          "maxcor": 20})
    return r.x[:d1], r.x[d1:], r


# ---------------------------------------------------------------------------------------------
# Reports


def mean_logloss(s, y, A, B):
    ll, _, _ = loglik_ab(s, y, A, B)
    return -ll.mean()


def baseline_logloss(y):
    n = len(y)
    ll = 0.0
    for k in (0, 1, 2):
        c = int((y == k).sum())
        if c:
            ll -= c / n * np.log(c / n)
    return ll


def calibration(s, y, A, B, edges, title, out):
    pw, pd, pl = probs(s, A, B)
    bins = np.digitize(s, edges)  # 0: < edges[0], len(edges): >= edges[-1]
    labels = ([f"<{edges[0]:.0f}"] + [f"{edges[i]:.0f}..{edges[i + 1]:.0f}"
                                      for i in range(len(edges) - 1)]
              + [f">={edges[-1]:.0f}"])
    print(title, file=out)
    print(f"  {'score':>11} {'n':>7} | {'obs W':>6} {'D':>6} {'L':>6} | {'pred W':>6} {'D':>6} "
          f"{'L':>6} | {'mean s':>7}", file=out)
    for i, lab in enumerate(labels):
        m = bins == i
        c = int(m.sum())
        if c == 0:
            continue
        ow, od, ol = [(y[m] == k).mean() * 100 for k in (2, 1, 0)]
        print(f"  {lab:>11} {c:>7} | {ow:6.1f} {od:6.1f} {ol:6.1f} | {pw[m].mean() * 100:6.1f} "
              f"{pd[m].mean() * 100:6.1f} {pl[m].mean() * 100:6.1f} | {s[m].mean():7.0f}", file=out)


def fmt(c):
    return "[" + ", ".join(f"{v:.6g}" for v in c) + "]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, choices=["chess", "xiangqi", "chinesecheckers"])
    ap.add_argument("--degree", type=int, default=3, help="polynomial degree of a and b (3)")
    ap.add_argument("--lo", type=float, help="material clamp low")
    ap.add_argument("--hi", type=float, help="material clamp high")
    ap.add_argument("--ref", type=float, help="material normalisation: x = clamp(m)/ref")
    ap.add_argument("--max-abs-score", type=int, help="drop positions with |score| above this")
    ap.add_argument("--bin-step", type=float, help="calibration bin width, cp (100; CC 25)")
    ap.add_argument("--bin-max", type=float, help="calibration bins from -this to this (600; CC 200)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    out = sys.stdout

    s, y, m = read(args.game, args.files, args.max_abs_score)
    n = len(s)
    if n == 0:
        sys.exit("no positions")
    nw, nd, nl = [int((y == k).sum()) for k in (2, 1, 0)]
    print(f"game {args.game}: {n} positions from {', '.join(args.files)}", file=out)
    print(f"side to move: win {nw} ({nw / n * 100:.2f}%), draw {nd} ({nd / n * 100:.2f}%), "
          f"loss {nl} ({nl / n * 100:.2f}%)", file=out)
    base = baseline_logloss(y)
    cc = args.game == "chinesecheckers"
    step = args.bin_step or (25.0 if cc else 100.0)
    top = args.bin_max or (200.0 if cc else 600.0)
    edges = np.arange(-top, top + step / 2, step, dtype=np.float64)

    if args.game == "chinesecheckers":
        if nd == 0:
            # No draws: the likelihood grows as a -> 0 (p_draw = 0), so fit b alone with a = 0.
            print("no draws in the data: a = 0 (boundary), fitting b alone", file=out)
            a = 0.0
            r = minimize(lambda p: -(-softplus(-np.where(y == 2, s, -s) / np.exp(p[0]))).mean(),
                         [np.log(100.0)], method="Nelder-Mead",
                         options={"xatol": 1e-10, "fatol": 1e-14})
            b = float(np.exp(r.x[0]))
        else:
            a, b, _ = fit_const(s, y)
        A = np.full(n, max(a, EPS_A))
        B = np.full(n, b)
        ll = mean_logloss(s, y, A, B)
        print(f"\ncoefficients (constant): a = {a:.6g}, b = {b:.6g}", file=out)
        print(f"mean log-loss: model {ll:.6f}, constant-rate baseline {base:.6f} "
              f"(improvement {(base - ll) / base * 100:.2f}%)", file=out)
        print(f"score for 50% win: a = {a:.6g} cp", file=out)
        print("", file=out)
        calibration(s, y, A, B, edges, "calibration (all positions):", out)
        return

    lo_d, hi_d, ref_d = DEFAULT_RANGE[args.game]
    lo = args.lo if args.lo is not None else lo_d
    hi = args.hi if args.hi is not None else hi_d
    ref = args.ref if args.ref is not None else ref_d
    pct = np.percentile(m, [0, 1, 5, 25, 50, 75, 95, 99, 100])
    print("material percentiles 0/1/5/25/50/75/95/99/100: "
          + " ".join(f"{v:.0f}" for v in pct), file=out)
    print(f"x = clamp(m, {lo:g}, {hi:g}) / {ref:g}; positions clamped: below {int((m < lo).sum())}, "
          f"above {int((m > hi).sum())}", file=out)
    x = np.clip(m, lo, hi) / ref

    # Per-material check: (a, b) fitted alone for each material value with enough positions.
    xs, as_, bs, ws = [], [], [], []
    prev = (100.0, 100.0)
    for mv in np.unique(np.clip(m, lo, hi)):
        sel = np.clip(m, lo, hi) == mv
        if sel.sum() < 300:
            continue
        a1, b1, _ = fit_const(s[sel], y[sel], init=prev)
        if not (0.5 < a1 < 5000 and 1 < b1 < 5000):
            continue
        xs.append(mv / ref)
        as_.append(a1)
        bs.append(b1)
        ws.append(sel.sum())
        prev = (a1, b1)
    xs, as_, bs, ws = map(np.array, (xs, as_, bs, ws))

    print(f"\nmean log-loss, constant-rate baseline: {base:.6f}", file=out)
    a0, b0, _ = fit_const(s, y)
    ll0 = mean_logloss(s, y, np.full(n, a0), np.full(n, b0))
    print(f"  degree 0 (constant a, b: {a0:.6g}, {b0:.6g}): {ll0:.6f}", file=out)
    results = {}
    ia = np.array([a0])
    ib = np.array([b0])
    for deg in range(1, max(args.degree, 1) + 1):
        # Start from the previous degree's optimum (a zero leading coefficient).
        ia = np.concatenate([[0.0], ia])
        ib = np.concatenate([[0.0], ib])
        ca, cb, r = fit_poly(s, y, x, deg, ia, ib)
        ia, ib = ca, cb
        A = polyval(ca, x)
        B = polyval(cb, x)
        ll = mean_logloss(s, y, A, B)
        results[deg] = (ca, cb, ll)
        print(f"  degree {deg}: {ll:.6f}  (L-BFGS-B: {r.message}, {r.nit} iterations, "
              f"|grad| {np.abs(r.jac).max():.1e})", file=out)

    deg = args.degree
    ca, cb, ll = results[deg]
    A = polyval(ca, x)
    B = polyval(cb, x)
    print(f"\nchosen degree {deg}: mean log-loss {ll:.6f} vs baseline {base:.6f} "
          f"(improvement {(base - ll) / base * 100:.2f}%)", file=out)
    print("coefficients, highest power first: a(x) = ((a0*x + a1)*x + a2)*x + a3 (Stockfish order)",
          file=out)
    print(f"  a = {fmt(ca)}", file=out)
    print(f"  b = {fmt(cb)}", file=out)
    print(f"  x = clamp(m, {lo:g}, {hi:g}) / {ref:g}", file=out)
    if np.any(A <= 0):
        print("WARNING: a(x) <= 0 somewhere in the data", file=out)
    med = float(np.median(m))
    xm = np.array([np.clip(med, lo, hi) / ref])
    print(f"median material {med:g}: a = {polyval(ca, xm)[0]:.6g} cp (50% win score), "
          f"b = {polyval(cb, xm)[0]:.6g}", file=out)
    print("a(m), b(m) on the range:", file=out)
    grid = np.unique(np.round(np.linspace(lo, hi, 9)))
    print("  m: " + " ".join(f"{v:6.0f}" for v in grid), file=out)
    print("  a: " + " ".join(f"{v:6.1f}" for v in polyval(ca, grid / ref)), file=out)
    print("  b: " + " ".join(f"{v:6.1f}" for v in polyval(cb, grid / ref)), file=out)
    if len(xs):
        print("per-material MLE (start values) vs fitted polynomial:", file=out)
        print(f"  {'m':>5} {'n':>7} {'a':>7} {'poly a':>7} {'b':>7} {'poly b':>7}", file=out)
        for xi, ai, bi, wi in zip(xs, as_, bs, ws):
            xv = np.array([xi])
            print(f"  {xi * ref:5.0f} {wi:7d} {ai:7.1f} {polyval(ca, xv)[0]:7.1f} {bi:7.1f} "
                  f"{polyval(cb, xv)[0]:7.1f}", file=out)

    print("", file=out)
    calibration(s, y, A, B, edges, "calibration (all positions):", out)
    t1, t2 = np.percentile(m, [100 / 3, 200 / 3])
    for name, sel in ((f"material <= {t1:g}", m <= t1),
                      (f"material {t1:g} < m <= {t2:g}", (m > t1) & (m <= t2)),
                      (f"material > {t2:g}", m > t2)):
        print("", file=out)
        calibration(s[sel], y[sel], A[sel], B[sel], edges,
                    f"calibration ({name}, {int(sel.sum())} positions):", out)


if __name__ == "__main__":
    main()
