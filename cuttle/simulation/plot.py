"""Plots of simulation results (matplotlib, imported only when a plot is made)."""

__all__ = ["plot_comparison", "pyplot"]


def pyplot():
    """matplotlib.pyplot on the non-interactive Agg backend; ImportError saying how to
    install it."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("plotting needs matplotlib, which is not installed; "
                          "install it with: pip install matplotlib") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_comparison(c, path, title=None):
    """Save a bar chart of a `ComparisonResult` to `path`."""
    plt = pyplot()
    metrics = ["win_A", "win_B", "draw", "first_mover"]
    k = len(c.labels)
    fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * k + 6), 4.8))
    width = 0.8 / len(metrics)
    for ax, diff in ((axes[0], False), (axes[1], True)):
        for mi, metric in enumerate(metrics):
            xs, vals, lo, hi = [], [], [], []
            for i in range(k):
                if diff and i == 0:
                    continue
                e = c.difference(metric, i) if diff else c.estimate(metric, i)
                xs.append(i + (mi - (len(metrics) - 1) / 2) * width)
                vals.append(100 * e.value)
                lo.append(100 * (e.value - e.low))
                hi.append(100 * (e.high - e.value))
            if xs:
                ax.bar(xs, vals, width, yerr=[lo, hi], capsize=3,
                       label=c.metric_label(metric))
        ticks = list(range(1 if diff else 0, k))
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"[{i + 1}]" for i in ticks])
        if diff:
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_ylabel("difference to [1] (percentage points)")
            ax.set_title(f"vs baseline [1], {c.confidence:.0%} Newcombe intervals")
        else:
            ax.set_ylabel("rate (%)")
            ax.set_title(f"rates, {c.confidence:.0%} Wilson intervals")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=len(metrics), fontsize="small",
               bbox_to_anchor=(0.5, 0.94), frameon=False)
    caption = "\n".join(f"[{i + 1}] {lab}" for i, lab in enumerate(c.labels))
    fig.suptitle(title or f"cuttle: {c.n_games:,} {c.unit} per rule set, "
                          f"A = {c.players[0]}, B = {c.players[1]}")
    fig.text(0.01, 0.01, caption, fontsize="small", va="bottom")
    fig.tight_layout(rect=(0, 0.04 + 0.03 * k, 1, 0.89))
    fig.savefig(path)
    plt.close(fig)


