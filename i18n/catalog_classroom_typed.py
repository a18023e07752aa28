"""Strings of typed questions in a live class (classroom/typed_answers.py, liveclass/typed.py): the student's box, the
refusals of a typed answer (`live.err.<code>`), the class's histogram of typed answers."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- how students answer the kind chosen in the teacher's list (under it)
    "live.answered_by.choice": {"en": "Students pick one of the options.", "zh": "学生从选项中选一项。"},
    "live.answered_by.number": {"en": "Students type a number.", "zh": "学生填写一个数。"},
    "live.answered_by.shape": {"en": "Students type a shape, such as 1 × 11 × 64.", "zh": "学生填写一个形状，例如 1 × 11 × 64。"},
    # ---- refusals of a typed answer (LiveError codes of liveclass.typed)
    "live.err.answer_too_long": {"en": "An answer has at most {limit} characters.",
                                 "zh": "答案最多 {limit} 个字符。"},
    "live.err.bad_number": {
        "en": "That is not a number: type digits, e.g. 0.25, 1/4 or 1,024. Nothing was sent.",
        "zh": "这不是一个数：请输入数字，例如 0.25、1/4 或 1,024。没有提交任何内容。",
    },
    "live.err.bad_shape": {
        "en": "That is not a shape: type positive whole numbers, e.g. 6 × 8 or 6x8. Nothing was sent.",
        "zh": "这不是一个形状：请输入正整数，例如 6 × 8 或 6x8。没有提交任何内容。",
    },
    # ---- the student
    "live.typed.yours": {"en": "Your answer: {answer}", "zh": "你的答案：{answer}"},
    # ---- the class's answers
    "live.typed.other": {"en": "other answers", "zh": "其他答案"},
    "live.typed.none_yet": {"en": "No answers yet.", "zh": "还没有人回答。"},
    "live.typed.hist": {"en": "The class's answers, most frequent first ({n} in all)",
                        "zh": "全班的答案，按人数从多到少（共 {n} 份）"},
    "live.typed.expects.number": {"en": "Students type a number.", "zh": "学生输入一个数。"},
    "live.typed.expects.shape": {"en": "Students type a shape (e.g. 6 × 8).", "zh": "学生输入一个形状（例如 6 × 8）。"},
}
