"""Training lab: a tiny transformer learns a toy task on the CPU while its heads specialise (note 004)."""

import pandas as pd
import streamlit as st

from figures import head_similarity_figure
from frame import outside_frame
from training import BATCH_SIZE, EVAL_SIZE, LIMITS, TASK_NAMES, TASKS, TrainingError, active_trainings
from training.figures import heads_figure, pattern_curves, training_curves
from ui.chart_element import show
from ui.context import get_context
from ui.lab_state import config_from_state, current_lab, load_defaults, next_example, remember_controls, start

if outside_frame():
    st.stop()
ctx = get_context()
tr, lang, style = ctx.t, ctx.lang, ctx.style
lab = current_lab()

st.title(tr("lab.title"))
st.markdown(tr("lab.intro"))
busy = lab.running
task = TASKS[st.selectbox(tr("lab.task"), TASK_NAMES, key="lab_task", format_func=lambda n: tr(f"lab.task.{n}"),
                          on_change=load_defaults, disabled=busy)]  # fmt: skip
st.markdown(tr(f"lab.task.{task.name}.help", k=task.n_items))
cols = st.columns([3, 2, 2, 2, 3, 2])
cols[0].select_slider(tr("lab.d_model"), LIMITS.d_models, key="lab_d_model", disabled=busy)
cols[1].select_slider(tr("lab.n_heads"), LIMITS.heads, key="lab_n_heads", disabled=busy)
cols[2].radio(tr("lab.n_layers"), range(1, LIMITS.max_layers + 1), key="lab_n_layers", horizontal=True, disabled=busy)
cols[3].number_input(tr("lab.steps"), LIMITS.min_steps, LIMITS.max_steps, step=50, key="lab_steps", disabled=busy,
                     help=tr("lab.steps_help", lo=LIMITS.min_steps, hi=LIMITS.max_steps, batch=BATCH_SIZE))
cols[4].select_slider(tr("lab.lr"), LIMITS.learning_rates, key="lab_lr", format_func=lambda v: f"{v:g}", disabled=busy)
cols[5].number_input(tr("lab.seed"), 0, LIMITS.max_seed, key="lab_seed", help=tr("lab.seed_help"), disabled=busy)
remember_controls()
later = tr("lab.mask_later") if task.causal else tr("lab.mask_both")
st.caption(tr("lab.defaults_note") + " " + tr("lab.mask_note", later=later))
if st.session_state["lab_n_layers"] < task.layers_needed:
    st.warning(tr("lab.needs_layers", n=task.layers_needed), icon=":material/warning:")
try:
    config = config_from_state()
except TrainingError as e:
    st.error(tr(f"lab.err.{e.code}", **e.params), icon=":material/warning:")
    config = None

c1, c2, _ = st.columns([1, 1, 5])
c1.button(tr("lab.train"), key="lab_train", type="primary", on_click=start, disabled=busy or config is None)
c2.button(tr("lab.stop"), key="lab_stop", on_click=lab.stop, disabled=not busy)


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
            st.warning(tr("lab.busy"))
            break
        t = lab.current
        text = tr("lab.progress", step=t.step, steps=t.config.steps, seconds=t.seconds)
        bar.progress(t.step / t.config.steps, text=text)
        with live.container():
            others = active_trainings() - 1  # this run counts itself: it has just trained a chunk
            if others > 0:
                st.caption(tr("busy.one_other_training") if others == 1 else tr("lab.sharing", n=others))
            left, right = st.columns(2)
            fig_loss, fig_pattern = curves(t)
            with left:  # redrawn every chunk: their numbers come with the final charts below
                show(fig_loss, key=f"lab_live_loss_{n}", numbers=False)
            with right:
                show(fig_pattern, key=f"lab_live_pattern_{n}", numbers=False)
        n += 1
    if not lab.running:  # finished: redraw the controls (enabled again) and the results
        st.rerun()

trainer = lab.current
if trainer is None:
    st.info(tr("lab.no_run"))
    st.stop()

cfg = trainer.config
if config is not None and config != trainer.config:
    st.info(tr("lab.settings_changed"))
summary = trainer.final_summary()
st.success(tr("lab.status_done", step=trainer.step, seconds=summary["seconds"], acc=summary["accuracy"],
              best=summary["best_pattern"]))  # fmt: skip
if trainer.stopped:
    st.warning(tr("lab.status_stopped", step=trainer.step, steps=cfg.steps))
if lab.from_cache:
    st.caption(tr("lab.status_cached"))

snap_key = f"lab_snap_{lab.run_number}"
snap_steps = [s.step for s in trainer.snapshots]
marker = st.session_state.get(snap_key, snap_steps[-1])
st.header(tr("lab.sec.curves"))
st.caption(tr("lab.pattern_text", n=EVAL_SIZE))
left, right = st.columns(2)
fig_loss, fig_pattern = curves(trainer, marker)
with left:
    show(fig_loss, key="lab_loss")
with right:
    show(fig_pattern, key="lab_pattern")

st.header(tr("lab.sec.over_time"))
step = st.select_slider(tr("lab.scrub"), snap_steps, value=snap_steps[-1], key=snap_key, help=tr("lab.scrub_help"))
snapshot = trainer.snapshots[snap_steps.index(step)]
probe_labels = trainer.task.labels(trainer.probe.tokens)
show(heads_figure(trainer.for_display(snapshot.weights), probe_labels, title=tr("lab.fig.heads_at", step=step),
                  expected=trainer.for_display(trainer.expected(trainer.probe)), lang=lang, style=style),
     key="lab_heads_time")  # fmt: skip
st.caption(tr("lab.over_time_caption"))

st.header(tr("lab.sec.final"))


st.button(tr("lab.new_example"), key="lab_new_example", on_click=next_example)
ex = trainer.try_example(lab.example_number)
table = pd.DataFrame([ex.tokens, ex.targets, ex.predictions],
                     index=[tr("lab.row.input"), tr("lab.row.target"), tr("lab.row.prediction")])  # fmt: skip
st.dataframe(table, width="stretch")
st.caption(tr("lab.final_caption", right=ex.right, total=ex.total))
show(heads_figure(ex.weights, ex.tokens, title=tr("lab.fig.heads_final"), expected=ex.expected, lang=lang, style=style),
     key="lab_heads_final")  # fmt: skip

st.header(tr("lab.sec.similarity"))
st.markdown(tr("lab.contrib_text"))
before, after = trainer.contribution_before, trainer.contribution_similarity()
for layer in range(cfg.n_layers):
    if cfg.n_layers > 1:
        st.subheader(tr("lab.layer_n", n=layer + 1))
    left, right = st.columns(2)
    with left:
        show(head_similarity_figure(before[layer], tr("lab.fig.before"), value_name="cos", lang=lang, style=style),
             key=f"lab_sim_before_{layer}")  # fmt: skip
    with right:
        show(head_similarity_figure(after[layer], tr("lab.fig.after"), lang=lang, style=style),
             key=f"lab_sim_after_{layer}")  # fmt: skip
