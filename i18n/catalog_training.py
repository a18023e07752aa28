"""Strings of the training lab page and its figures (keys "lab."). Each entry: {"en": ..., "zh": ...}."""

STRINGS: dict[str, dict[str, str]] = {
    "lab.title": {"en": "Training lab: watch heads specialise", "zh": "训练实验室：看各个头如何分工"},
    "lab.intro": {
        "en": "Note 004 says that heads start from random weights and specialise through training. Here you can watch it happen: a tiny transformer (token embeddings + sinusoidal positional encoding, one or two layers of our multi-head attention with a residual connection, and a linear output layer) learns a toy task on this server's CPU in a few seconds.",
        "zh": "笔记 004 说：各个头从随机权重出发，在训练中逐渐分工。这里可以亲眼看到这一过程：一个很小的 Transformer（词元嵌入 + 正弦位置编码，一到两层带残差连接的多头注意力，再加一个线性输出层）在服务器的 CPU 上用几秒钟学会一个小任务。",
    },
    "lab.task": {"en": "Task", "zh": "任务"},
    "lab.task.previous": {"en": "Copy the previous token", "zh": "复制前一个词元"},
    "lab.task.reverse": {"en": "Reverse the sequence", "zh": "反转序列"},
    "lab.task.sort": {"en": "Sort", "zh": "排序"},
    "lab.task.induction": {"en": "Induction (find the earlier copy)", "zh": "归纳（找到前面的副本）"},
    "lab.task.previous.help": {
        "en": "At every position, output the token just before it: `3 1 4 1 5` → `· 3 1 4 1`. A head has to learn to look exactly one position back.",
        "zh": "在每个位置输出它前面那个词元：`3 1 4 1 5` → `· 3 1 4 1`。某个头必须学会恰好往前看一个位置。",
    },
    "lab.task.reverse.help": {
        "en": "Position i outputs the token at position L − 1 − i: `3 1 4 1 5` → `5 1 4 1 3`. A head has to learn to look at the mirror position (the anti-diagonal).",
        "zh": "位置 i 输出位置 L − 1 − i 上的词元：`3 1 4 1 5` → `5 1 4 1 3`。某个头必须学会看镜像位置（反对角线）。",
    },
    "lab.task.sort.help": {
        "en": "Read {k} different digits, then after `|` write them in increasing order, one per position: `4 1 6 2 9 | 1 2 4 6` → `1 2 4 6 9`. The position that writes the next number must find, among the inputs, the smallest one larger than the number it holds.",
        "zh": "先读入 {k} 个互不相同的数字，在 `|` 之后按从小到大逐个写出：`4 1 6 2 9 | 1 2 4 6` → `1 2 4 6 9`。负责写下一个数的位置，必须在输入中找到比自己手上的数大的最小那个。",
    },
    "lab.task.induction.help": {
        "en": "A run of {k} symbols appears twice, with random filler before, between and after; the second time, predict the next symbol of the run: `… a b c d … a` → `b`. The gap varies, so counting back does not work. This needs two layers: a previous-token head in layer 1, then an induction head in layer 2 that finds the earlier copy of the current token and reads what came after it.",
        "zh": "一段 {k} 个符号的序列出现两次，前后和中间夹着随机填充；第二次出现时，预测这段序列的下一个符号：`… a b c d … a` → `b`。两次之间的间隔不固定，数位置行不通。这需要两层：第 1 层的“前一词元头”，再加第 2 层的“归纳头”——它找到当前词元在前面的副本，并读出副本后面的那个词元。",
    },
    "lab.mask_note": {
        "en": "Mask: in every task the answer sits at another position, so each token is hidden from itself ({later}). Without that, a head could mix in some of its own token and the output layer subtract it again through the residual connection: the task is still solved, but the heatmaps blur.",
        "zh": "掩码：每个任务的答案都在别的位置上，所以每个词元看不到它自己（{later}）。否则，一个头可以混入一些自己的词元，再由输出层通过残差连接把它减掉：任务照样能完成，但热力图会变得模糊。",
    },
    "lab.mask_later": {"en": "and every later token: decoder-style", "zh": "也看不到后面的词元：解码器式"},
    "lab.mask_both": {"en": "but it sees every other token, before and after", "zh": "但能看到前后所有其他词元"},
    "lab.d_model": {"en": "d_model", "zh": "d_model"},
    "lab.n_heads": {"en": "Heads h", "zh": "头数 h"},
    "lab.n_layers": {"en": "Layers", "zh": "层数"},
    "lab.steps": {"en": "Training steps", "zh": "训练步数"},
    "lab.steps_help": {
        "en": "{lo} to {hi}. Each step is one Adam update on a batch of {batch} random examples.",
        "zh": "{lo} 到 {hi}。每一步在一个由 {batch} 个随机样本组成的批量上做一次 Adam 更新。",
    },
    "lab.lr": {"en": "Learning rate", "zh": "学习率"},
    "lab.seed": {"en": "Seed", "zh": "随机种子"},
    "lab.seed_help": {
        "en": "Decides the initial weights, the training examples and the probe example. The same seed gives exactly the same curves.",
        "zh": "决定初始权重、训练样本和探针样本。同一个种子得到完全相同的曲线。",
    },
    "lab.defaults_note": {
        "en": "Choosing a task loads settings that learn it in a few seconds.",
        "zh": "选择任务时会载入能在几秒内学会它的设置。",
    },
    "lab.needs_layers": {
        "en": "This task needs {n} layers; with fewer, expect the accuracy to stay low.",
        "zh": "这个任务需要 {n} 层；层数不够时，准确率会一直很低。",
    },
    "lab.train": {"en": "Train", "zh": "开始训练"},
    "lab.stop": {"en": "Stop", "zh": "停止"},
    "lab.progress": {"en": "Step {step} of {steps} · {seconds:.1f} s", "zh": "第 {step} / {steps} 步 · {seconds:.1f} 秒"},
    "lab.busy": {
        "en": "Your previous training is still finishing a step; try again in a moment.",
        "zh": "上一次训练还在完成当前这一步，请稍后再试。",
    },
    "lab.sharing": {
        "en": "{n} other trainings are running on this server: trainings take turns, so yours is slower.",
        "zh": "服务器上还有 {n} 个训练在进行：各个训练轮流使用 CPU，所以你的会慢一些。",
    },
    "lab.no_run": {"en": "Choose a task and press **Train**.", "zh": "选择一个任务，然后点击 **开始训练**。"},
    "lab.status_done": {
        "en": "Trained {step} steps in {seconds:.1f} s. Accuracy on held-out examples: {acc:.1%}. Best head's pattern score: {best:.2f}.",
        "zh": "训练了 {step} 步，用时 {seconds:.1f} 秒。留出样本上的准确率：{acc:.1%}。最好的头的模式得分：{best:.2f}。",
    },
    "lab.status_stopped": {
        "en": "Stopped at step {step} of {steps}: everything below shows the model as it was then.",
        "zh": "在第 {step} / {steps} 步停止：下面展示的是那时的模型。",
    },
    "lab.status_cached": {
        "en": "Same settings as an earlier run in this session: shown from memory (same seed, same result).",
        "zh": "与本次会话中先前的一次运行设置相同：直接从内存显示（同一种子，同样结果）。",
    },
    "lab.settings_changed": {
        "en": "The settings above differ from the run shown below; press **Train** to train them.",
        "zh": "上面的设置与下面显示的运行不同；点击 **开始训练** 来训练新设置。",
    },
    "lab.err.not_allowed": {"en": "{name} must be one of {allowed}.", "zh": "{name} 必须是 {allowed} 之一。"},
    "lab.err.out_of_range": {"en": "{name} must be from {low} to {high}.", "zh": "{name} 必须在 {low} 到 {high} 之间。"},
    "lab.err.bad_task": {"en": "Unknown task.", "zh": "未知任务。"},
    "lab.sec.curves": {"en": "Learning curves", "zh": "学习曲线"},
    "lab.pattern_text": {
        "en": "**Pattern score** of a head: the share of its attention that lands on the key the task needs, averaged over {n} held-out examples. Evenly spread attention scores the dashed line; 1 means the head looks exactly where it must.",
        "zh": "一个头的**模式得分**：它的注意力落在任务所需那个键上的比例，在 {n} 个留出样本上取平均。注意力均匀分布时，模式得分为虚线所示；1 表示这个头恰好看向必须看的位置。",
    },
    "lab.sec.over_time": {"en": "The heads during training", "zh": "训练过程中的各个头"},
    "lab.scrub": {"en": "Training step", "zh": "训练步"},
    "lab.scrub_help": {
        "en": "Snapshots are taken on one fixed probe example, more often early on, where most of the change happens.",
        "zh": "快照都取自同一个固定的探针样本；训练初期变化最大，所以那时取得更密。",
    },
    "lab.over_time_caption": {
        "en": "Rows are queries, columns are keys, both labelled position:token. The first tile is what the task needs; grey cells are hidden by the mask. At step 0 every head spreads its attention almost evenly.",
        "zh": "行是查询，列是键，都标为“位置:词元”。第一块是任务所需的模式；灰色格子已被掩蔽。第 0 步时，每个头的注意力几乎均匀分布。",
    },
    "lab.sec.final": {"en": "The trained model on a fresh example", "zh": "训练好的模型在新样本上"},
    "lab.new_example": {"en": "Another example", "zh": "换一个样本"},
    "lab.row.input": {"en": "input", "zh": "输入"},
    "lab.row.target": {"en": "target", "zh": "目标"},
    "lab.row.prediction": {"en": "prediction", "zh": "预测"},
    "lab.final_caption": {
        "en": "An example the model never trained on: {right} of {total} targets predicted correctly. “·” marks positions without a target.",
        "zh": "模型从未训练过的样本：{total} 个目标中预测对了 {right} 个。“·” 表示该位置没有目标。",
    },
    "lab.sec.similarity": {"en": "Head similarity before and after training", "zh": "训练前后各个头的相似度"},
    "lab.contrib_text": {
        "en": "The cosine of what heads i and j add to the output ($\\mathrm{head}_i\\ W^O_i$) on the probe "
              "example, before and after training. It is not a measure of where the heads look: two heads can "
              "attend to the same positions (compare the heatmaps above) and still add different vectors, "
              "because each head has its own $W_i^V$ and $W^O_i$. Low values are no sign of specialisation by "
              "themselves: the “before” map is random heads (⟦errata:n004_lowcorr⟧). Note 004's $\\rho_{ij}$ of "
              "the raw head outputs depends on arbitrary coordinates (⟦errata:n004_rho⟧).",
        "zh": "头 i 与头 j 在探针样本上加到输出的部分（$\\mathrm{head}_i\\ "
              "W^O_i$）之间的余弦，训练前后各一张。它衡量的不是头看向哪里：两个头可以关注相同的位置（对照上面的热力图），加上的向量却仍然不同，因为每个头都有自己的 $W_i^V$ 和 "
              "$W^O_i$。数值低本身并不说明分工：“训练前”那张就是随机的头（⟦errata:n004_lowcorr⟧）。笔记 004 对原始头输出计算的 $\\rho_{ij}$ 依赖于任意的坐标（"
              "⟦errata:n004_rho⟧）。",
    },
    "lab.layer_n": {"en": "Layer {n}", "zh": "第 {n} 层"},
    # ---- figures
    "lab.fig.layer_head": {"en": "L{layer} · head {n}", "zh": "第{layer}层 · 头 {n}"},
    "lab.fig.step": {"en": "step", "zh": "步"},
    "lab.fig.snapshot_step": {"en": "step {step}", "zh": "第 {step} 步"},
    "lab.fig.loss": {"en": "training loss", "zh": "训练损失"},
    "lab.fig.accuracy": {"en": "accuracy (held out)", "zh": "准确率（留出样本）"},
    "lab.fig.curves_title": {"en": "Loss and accuracy", "zh": "损失与准确率"},
    "lab.fig.pattern_title": {"en": "Pattern score of each head", "zh": "每个头的模式得分"},
    "lab.fig.pattern_value": {"en": "attention on the needed key", "zh": "落在所需键上的注意力"},
    "lab.fig.uniform": {"en": "evenly spread attention", "zh": "均匀分布的注意力"},
    "lab.fig.needed": {"en": "task needs", "zh": "任务所需"},
    "lab.fig.before": {"en": "before training", "zh": "训练前"},
    "lab.fig.after": {"en": "after training", "zh": "训练后"},
    "lab.fig.heads_at": {"en": "Attention weights at step {step}", "zh": "第 {step} 步的注意力权重"},
    "lab.fig.heads_final": {"en": "Attention weights of the trained model", "zh": "训练后模型的注意力权重"},
    # symmetry breaking (training/symmetry.py, on the page "Why multi-head, tested")
    "lab.fig.sym_title": {
        "en": "Largest difference between head 1 and the other heads",
        "zh": "头 1 与其他头之间的最大差",
    },
    "lab.fig.sym_tied": {"en": "tied initial heads", "zh": "初始相同的头"},
    "lab.fig.sym_random": {"en": "random initial heads", "zh": "随机初始的头"},
    "lab.fig.sym_gap": {"en": "max |difference| of the weights", "zh": "权重的最大 |差|"},
}
