"""Training lab: a tiny transformer learns a toy task on the CPU while its heads specialise (note 004)."""

import pandas as pd
import streamlit as st

from training import (
    BATCH_SIZE,
    DEFAULTS,
    EVAL_SIZE,
    LIMITS,
    TASK_NAMES,
    TASKS,
    TrainConfig,
    TrainingError,
    active_trainings,
)
from training.figures import heads_figure, pattern_curves, similarity_figure, training_curves
from training.session import Lab
from ui.charts import show
from ui.context import get_context
from ui.frame import outside_frame

if outside_frame():
    st.stop()
ctx = get_context()
tr, lang, style = ctx.t, ctx.lang, ctx.style
lab: Lab = st.session_state.setdefault("tr_lab", Lab())  # this student's models, never shared
FIELDS = ("d_model", "n_heads", "n_layers", "steps", "lr")


def load_defaults() -> None:
    d = DEFAULTS[st.session_state["tr_task"]]
    st.session_state.update({f"tr_{f}": getattr(d, f) for f in FIELDS}, tr_defaults_of=d.task)


def config_from_state() -> TrainConfig:
    s = st.session_state
    return TrainConfig(s["tr_task"], *(int(s[f"tr_{f}"]) for f in FIELDS[:-1]), lr=s["tr_lr"], seed=int(s["tr_seed"]))


def start() -> None:
    if st.session_state["tr_task"] != st.session_state.get("tr_defaults_of"):  # task changed in the same click
        load_defaults()
    lab.start(config_from_state())


if "tr_task" not in st.session_state:
    st.session_state.update(tr_task=TASK_NAMES[0], tr_seed=0)
    load_defaults()

st.title(tr("tr.title"))
st.markdown(tr("tr.intro"))
busy = lab.running
task = TASKS[st.selectbox(tr("tr.task"), TASK_NAMES, key="tr_task", format_func=lambda n: tr(f"tr.task.{n}"),
                          on_change=load_defaults, disabled=busy)]  # fmt: skip
st.markdown(tr(f"tr.task.{task.name}.help", k=task.n_items))
cols = st.columns([3, 2, 2, 2, 3, 2])
cols[0].select_slider(tr("tr.d_model"), LIMITS.d_models, key="tr_d_model", disabled=busy)
cols[1].select_slider(tr("tr.n_heads"), LIMITS.heads, key="tr_n_heads", disabled=busy)
cols[2].radio(tr("tr.n_layers"), range(1, LIMITS.max_layers + 1), key="tr_n_layers", horizontal=True, disabled=busy)
cols[3].number_input(tr("tr.steps"), LIMITS.min_steps, LIMITS.max_steps, step=50, key="tr_steps", disabled=busy,
                     help=tr("tr.steps_help", lo=LIMITS.min_steps, hi=LIMITS.max_steps, batch=BATCH_SIZE))
cols[4].select_slider(tr("tr.lr"), LIMITS.learning_rates, key="tr_lr", format_func=lambda v: f"{v:g}", disabled=busy)
cols[5].number_input(tr("tr.seed"), 0, LIMITS.max_seed, key="tr_seed", help=tr("tr.seed_help"), disabled=busy)
later = tr("tr.mask_later") if task.causal else tr("tr.mask_both")
st.caption(tr("tr.defaults_note") + " " + tr("tr.mask_note", later=later))
if st.session_state["tr_n_layers"] < task.layers_needed:
    st.warning(tr("tr.needs_layers", n=task.layers_needed), icon=":material/warning:")
try:
    config = config_from_state()
except TrainingError as e:
    st.error(tr(f"tr.err.{e.code}", **e.params), icon=":material/warning:")
    config = None

c1, c2, _ = st.columns([1, 1, 5])
c1.button(tr("tr.train"), key="tr_train", type="primary", on_click=start, disabled=busy or config is None)
c2.button(tr("tr.stop"), key="tr_stop", on_click=lab.stop, disabled=not busy)


def curves(trainer, marker=None) -> tuple:
    h = trainer.history
    total = trainer.config.steps
    return (training_curves(h.steps, h.loss, h.accuracy, total_steps=total, marker_step=marker, lang=lang, style=style),
            pattern_curves(h.steps, h.pattern_array(), total_steps=total, uniform=trainer.uniform_pattern(),
                           marker_step=marker, lang=lang, style=style))  # fmt: skip


if lab.running:  # train in chunks of ~0.4 s; a click on Stop (or anything) interrupts between chunks
    bar, live = st.progress(0.0), st.empty()
    n = 0
    while lab.running:
        if not lab.advance(0.4):
            st.warning(tr("tr.busy"))
            break
        t = lab.current
        text = tr("tr.progress", step=t.step, steps=t.config.steps, seconds=t.seconds)
        bar.progress(t.step / t.config.steps, text=text)
        with live.container():
            others = active_trainings() - 1  # this run counts itself: it has just trained a chunk
            if others > 0:
                st.caption(tr("tr.sharing", n=others))
            left, right = st.columns(2)
            fig_loss, fig_pattern = curves(t)
            with left:
                show(fig_loss, key=f"tr_live_loss_{n}")
            with right:
                show(fig_pattern, key=f"tr_live_pattern_{n}")
        n += 1
    if not lab.running:  # finished: redraw the controls (enabled again) and the results
        st.rerun()

trainer = lab.current
if trainer is None:
    st.info(tr("tr.no_run"))
    st.stop()

cfg = trainer.config
if config is not None and config != trainer.config:
    st.info(tr("tr.settings_changed"))
summary = trainer.final_summary()
st.success(tr("tr.status_done", step=trainer.step, seconds=summary["seconds"], acc=summary["accuracy"],
              best=summary["best_pattern"]))  # fmt: skip
if trainer.stopped:
    st.warning(tr("tr.status_stopped", step=trainer.step, steps=cfg.steps))
if lab.from_cache:
    st.caption(tr("tr.status_cached"))

snap_key = f"tr_snap_{lab.run_number}"
snap_steps = [s.step for s in trainer.snapshots]
marker = st.session_state.get(snap_key, snap_steps[-1])
st.header(tr("tr.sec.curves"))
st.caption(tr("tr.pattern_text", n=EVAL_SIZE))
left, right = st.columns(2)
fig_loss, fig_pattern = curves(trainer, marker)
with left:
    show(fig_loss, key="tr_loss")
with right:
    show(fig_pattern, key="tr_pattern")

st.header(tr("tr.sec.over_time"))
step = st.select_slider(tr("tr.scrub"), snap_steps, value=snap_steps[-1], key=snap_key, help=tr("tr.scrub_help"))
snapshot = trainer.snapshots[snap_steps.index(step)]
probe_labels = trainer.task.labels(trainer.probe.tokens)
show(heads_figure(trainer.for_display(snapshot.weights), probe_labels, title=tr("tr.fig.heads_at", step=step),
                  expected=trainer.for_display(trainer.expected(trainer.probe)), lang=lang, style=style),
     key="tr_heads_time")  # fmt: skip
st.caption(tr("tr.over_time_caption"))

st.header(tr("tr.sec.final"))


def next_example() -> None:
    lab.example_number += 1


st.button(tr("tr.new_example"), key="tr_new_example", on_click=next_example)
ex = trainer.try_example(lab.example_number)
table = pd.DataFrame([ex.tokens, ex.targets, ex.predictions],
                     index=[tr("tr.row.input"), tr("tr.row.target"), tr("tr.row.prediction")])  # fmt: skip
st.dataframe(table, width="stretch")
st.caption(tr("tr.final_caption", right=ex.right, total=ex.total))
show(heads_figure(ex.weights, ex.tokens, title=tr("tr.fig.heads_final"), expected=ex.expected, lang=lang, style=style),
     key="tr_heads_final")  # fmt: skip

st.header(tr("tr.sec.similarity"))
st.markdown(tr("tr.contrib_text"))
before, after = trainer.contribution_before, trainer.contribution_similarity()
for layer in range(cfg.n_layers):
    if cfg.n_layers > 1:
        st.subheader(tr("tr.layer_n", n=layer + 1))
    left, right = st.columns(2)
    with left:
        show(similarity_figure(before[layer], tr("tr.fig.before"), lang=lang, style=style),
             key=f"tr_sim_before_{layer}")  # fmt: skip
    with right:
        show(similarity_figure(after[layer], tr("tr.fig.after"), lang=lang, style=style), key=f"tr_sim_after_{layer}")
