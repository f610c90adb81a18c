"""A deterministic generator of synthetic digest corpora, for the benchmarks.

    python -m tests.benchmarks.corpus OUTDIR --papers N [--seed S] [--papers-per-file K]
        [--claims-per-paper C] [--jobs J]

writes `bench_000000.txt`, `bench_000001.txt`, … into OUTDIR in both real formats (deep-read
review digests and HuggingFace daily lists, alternating, on consecutive days) plus
`manifest.json`. Parsed by `jobs.parser`, the files yield exactly N papers: 55% HuggingFace
entries, 35% deep reads and 10% abstract-only entries, as in the seeds, and about 13 numbered
claims per paper in total (PRODUCT.md: 100,000 papers, about 1.3 million claims). Only deep
reads carry claims, so a deep read holds about 13 / 0.35 ≈ 37 of them.

Text comes from the vocabularies below, drawn by a Zipf-like law in rank order: common words
are common (`model`, `模型`, `AUROC` … occur in a large share of the claims) and rare words
rare, because the benchmark must time queries with hundreds of thousands of matches as well
as queries with a handful. Same seed and N, same bytes: all randomness comes from
`random.Random` seeded with ints and strings, never from the clock or `hash()`, and each
file depends only on the seed and its place in the plan, so `--jobs` processes (default:
the CPU count, at most 4) write the same bytes as one.

`benchmark_queries(N)` gives the /paper and /claims inputs that go with a corpus.
`manifest.json` sits beside the digests and is no digest: ingest `OUTDIR/bench_*.txt`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple, TypeVar

GENERATOR_VERSION = "1"
DEFAULT_SEED = 20260928
DEFAULT_PAPERS_PER_FILE = 200
CLAIMS_PER_PAPER = 13.0
SHARE_HUGGINGFACE, SHARE_ABSTRACT_ONLY = 0.55, 0.10
START_DAY = date(2026, 1, 1)
NOTE = "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。"

DEEP_READ, ABSTRACT_ONLY, HUGGINGFACE = "deep_read", "abstract_only", "huggingface"
KINDS = (HUGGINGFACE, DEEP_READ, ABSTRACT_ONLY)

# Vocabularies, most frequent first: the rank decides the share of text a word gets.
EN_NOUNS = (
    "model", "accuracy", "training", "latency", "memory", "inference", "data", "reward",
    "policy", "reasoning", "baseline", "performance", "context", "throughput", "alignment",
    "generation", "tokens", "attention", "retrieval", "agent", "evaluation", "decoding",
    "planning", "prompt", "rollout", "video", "diffusion", "language", "image", "audio",
    "calibration", "robustness", "efficiency", "sampling", "distillation", "quantization",
    "verifier", "critic", "encoder", "decoder", "router", "expert", "cache", "trajectory",
    "preference", "feedback", "benchmark", "curriculum", "supervision", "annotation",
    "hallucination", "segmentation", "tracking", "detection", "grounding", "navigation",
    "manipulation", "perception", "compression", "pruning", "sparsity", "tokenizer",
    "embedding", "uncertainty", "consistency", "diversity", "fidelity", "coverage",
    "recall", "precision", "variance", "entropy", "gradient", "optimizer", "schedule",
    "warmup", "checkpoint", "adapter", "controller", "simulator", "scene", "camera",
    "speech", "music", "molecule", "protein", "theorem", "proof", "code", "compiler",
    "kernel", "scheduler", "workload", "cluster", "shard", "replica", "watermark",
    "jailbreak", "privacy", "fairness", "toxicity", "refusal", "persona", "dialogue",
    "summary", "translation", "table", "chart", "document", "layout", "font", "sketch",
    "mesh", "texture", "lighting", "depth", "flow", "occupancy", "lidar", "radar",
    "weather", "traffic", "finance", "legal", "clinical", "radiology", "genome", "crystal",
)  # fmt: skip
EN_ADJECTIVES = (
    "adaptive", "sparse", "multimodal", "efficient", "robust", "hierarchical", "unified",
    "generic", "lightweight", "autoregressive", "contrastive", "latent", "modular",
    "on-policy", "off-policy", "zero-shot", "few-shot", "long-horizon", "streaming",
    "causal", "structured", "iterative", "progressive", "decoupled", "anchored", "implicit",
    "explicit", "frozen", "distributed", "quantized", "bidirectional", "hybrid",
)  # fmt: skip
ZH_WORDS = (
    "模型", "训练", "延迟", "显存", "推理", "数据", "准确率", "基线", "方法", "性能", "奖励",
    "策略", "任务", "样本", "参数", "评测", "对齐", "上下文", "吞吐", "泛化", "蒸馏", "量化",
    "检索", "幻觉", "多模态", "规划", "机器人", "偏好", "微调", "剪枝", "缓存", "注意力",
    "稀疏", "专家", "路由", "解码", "采样", "扩散", "世界模型", "具身", "智能体", "工具调用",
    "长程", "记忆", "压缩", "校准", "鲁棒性", "安全", "越狱", "水印", "隐私", "图像", "语音",
    "音频", "视频", "同步", "分割", "检测", "跟踪", "深度估计", "点云", "分子", "蛋白质",
    "天气", "医学", "法律", "金融", "代码", "数学", "定理证明", "形式化", "搜索", "排序",
    "推荐", "知识图谱", "课程学习", "信用分配", "轨迹", "锚定", "同步性", "一致性", "多样性",
    "保真度", "覆盖率", "召回率", "精确率", "方差", "熵", "梯度", "优化器", "学习率",
    "检查点", "适配器", "控制器", "仿真", "场景", "相机", "音乐", "编译器", "算子", "调度",
    "集群", "分片", "副本", "公平性", "毒性", "拒答", "对话", "摘要", "翻译", "表格",
    "图表", "文档", "版面", "网格", "纹理", "光照", "光流", "占据", "雷达", "交通", "临床",
)  # fmt: skip
METRICS = (
    "AUROC", "accuracy", "F1", "pass@1", "EM", "BLEU", "ROUGE-L", "mAP", "FID", "CLIP",
    "WER", "AUPRC", "ECE", "NDCG@10", "Recall@5", "HOTA", "PSNR", "SSIM", "LPIPS", "FVD",
    "pass@256", "Win Rate", "MRR", "CIDEr", "DeSync", "IoU", "Spearman", "Kendall-τ",
)  # fmt: skip
DATASETS = (
    "GSM8K", "MATH-500", "HumanEval", "MMLU", "AIME24", "GPQA", "SWE-bench", "LiveCodeBench",
    "MBPP", "ARC-C", "HellaSwag", "TruthfulQA", "RAGTruth", "LIBERO", "RoboTwin", "JavisBench",
    "VABench", "VBench", "COCO", "ImageNet", "Kinetics-400", "LongBench-v2", "RULER",
    "BFCL-v3", "WebArena", "OSWorld", "ScienceQA", "MathVista", "ChartQA", "DocVQA",
    "nuScenes", "ScanNet", "LibriSpeech", "AudioCaps", "MedQA", "PubMedQA", "StrongREJECT",
    "HarmBench", "IFEval", "AlpacaEval", "MT-Bench", "Arena-Hard", "CALVIN", "SimplerEnv",
)  # fmt: skip
BASELINES = (
    "GRPO", "LoRA", "PPO", "DPO", "SFT", "GSPO", "Qwen2.5-7B", "Llama-3.1-8B", "GPT-4o",
    "DeepSeek-R1", "Qwen3-8B", "Flow-GRPO", "GDPO", "SAM 3", "Claude", "Gemini", "Mixtral",
    "CLIP-ViT-L", "Whisper", "Stable Diffusion", "REINFORCE", "RLOO", "KTO", "SimPO",
    "Medusa", "EAGLE", "vLLM", "FlashAttention", "Mamba", "RWKV", "π0.5", "OpenVLA",
)  # fmt: skip
GPUS = ("NVIDIA A800 80GB", "H100", "A100 40GB", "H20", "RTX 4090", "L40S", "TPU v5e")
LEVELS = ("中等", "中等偏上", "中等偏低", "较高", "较低")
# Rare words are built, not listed: enough of them that each occurs in only a few claims.
RARE_SYLLABLES = (
    "bra", "cor", "dun", "fel", "gri", "hom", "jav", "kel", "lup", "mer", "nod", "pim",
    "qua", "rut", "sev", "tor", "vim", "wex", "yol", "zan",
)  # fmt: skip
RARE_ENDINGS = ("ine", "ode", "ament", "ic", "ure", "al", "ogen", "ite")
RARE_ZH_CHARS = "岚砾枢璇曦翎澜琮瑾笙珩钺翊婺溱湄楹棠榆槿檀桉萸芷蘅蓁荇芊茴苒蔻菡菀蕤薇莜琛"
# Method names, e.g. `KorenFlow-GRPO`, `VelixPlan-7B`: unique per paper, by construction.
NAME_HEADS = (
    "Kor", "Vel", "Nim", "Ast", "Bri", "Cal", "Dor", "Ely", "Fen", "Gal", "Hal", "Ira",
    "Jun", "Kes", "Lum", "Mor", "Nov", "Ory", "Pax", "Quo", "Ros", "Sol", "Tal", "Umb",
    "Ves", "Wyn", "Xen", "Yar", "Zep", "Lyr",
)  # fmt: skip
NAME_TAILS = ("a", "en", "ix", "on", "ar", "is", "ex", "um", "or", "el", "yn", "ia", "ox", "ei")
NAME_CORES = (
    "", "Flow", "Mind", "Gen", "Align", "Plan", "Seg", "Tok", "Vis", "Code", "Reason", "Mem",
    "Route", "Spec", "Sync", "Guard", "Tune", "Scope", "Bench", "Agent",
)  # fmt: skip
NAME_SUFFIXES = (
    "GRPO", "PO", "RL", "MoE", "7B", "8B", "13B", "A3B", "R1", "V2", "X", "Zero", "Lite",
    "Pro", "VLA", "LM", "Net", "DiT", "KV", "Max", "Flash", "Omni", "Edge", "Nano",
)  # fmt: skip
FULL_NAME_WORDS = (
    "Adaptive", "Anchored", "Balanced", "Contrastive", "Decoupled", "Efficient", "Guided",
    "Hierarchical", "Iterative", "Latent", "Modular", "Neural", "Online", "Progressive",
    "Robust", "Sparse", "Structured", "Unified", "Variational", "Weighted",
)  # fmt: skip
FULL_NAME_NOUNS = (
    "Policy Optimization", "Planning", "Routing", "Segmentation", "Alignment", "Reasoning",
    "Generation", "Retrieval", "Distillation", "Decoding", "Memory", "Reward Modeling",
)  # fmt: skip
TITLE_GERUNDS = ("Unifying", "Scaling", "Rethinking", "Training", "Steering", "Distilling")
TITLE_NOUNS = (
    "Reasoning", "Memory", "Alignment", "Perception", "Planning", "Retrieval", "Rewards",
    "Attention", "Tokenization", "Exploration", "Calibration", "Verification",
)  # fmt: skip
TITLE_AREAS = (
    "Streaming Video Interaction", "Multi-Reward RL", "Diffusion Language Models",
    "Humanoid Loco-Manipulation", "GUI Agents", "Long-Horizon Agents", "Audio-Video Generation",
    "Mathematical Discovery", "Embodied Manipulation", "Speculative Decoding",
)  # fmt: skip
FIRST_NAMES = (
    "Wei", "Xiangyu", "Yuandong", "Jun", "Hao", "Li", "Chen", "Ada", "Maria", "Lukas",
    "Priya", "Omar", "Sofia", "Kenji", "Yuki", "Zhiqiu", "Shulin", "Junsu", "Antonino", "Eun",
)  # fmt: skip
LAST_NAMES = (
    "Zhang", "Wang", "Li", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Smith",
    "Garcia", "Müller", "Tanaka", "Kim", "Singh", "Rossi", "Novak", "Furnari", "Honarmand",
)  # fmt: skip
CATEGORIES = ("cs.CL", "cs.LG", "cs.CV", "cs.AI", "cs.RO", "stat.ML", "cs.SD", "eess.AS")

# Templates share one set of fields, filled from a per-sentence bundle (see `_Material`).
_FIELDS = (
    "name", "metric", "data", "base", "gpu", "full",
    "x", "y", "lo", "hi", "pct", "pt", "k", "k2", "g1", "g2", "ms", "sec", "d",
    "n0", "n1", "n2", "n3", "e0", "adj", "z0", "z1", "z2", "z3",
)  # fmt: skip
_FULL_AT, _NOUNS_AT, _ZH_AT = _FIELDS.index("full"), _FIELDS.index("n0"), _FIELDS.index("z0")

# Numbered claims (Chinese) and their evidence quotes (English), in the seeds' style. Every
# claim has {z0} and every quote {n0}: that is where a rare word is planted.
ZH_CLAIMS = (
    "{name} 在 {data} 上把{z2} {metric} 从 {x} 提升到 {y}，{z0}{z1}开销基本不变。",
    "零样本{z0}在 {k} 个{z1}基准上的中位 {metric} 为 {x}，{z2}{z3}也有提升。",
    "相比 {base}，{name} 的{z0}降低 {pct}，{z1}{z2}从 {g1} GB 降到 {g2} GB。",
    "{z0}与{z1}各有取舍：{metric} {x} 高于{z2}的 {y}，但{z3}略低于基线。",
    "消融显示，去掉{z0}{z1}后 {metric} 下降 {pt} 个点，{z2}收益最大。",
    "训练硬件为单节点 {k} 卡 {gpu}；{z0}{z1}约为每步 {ms} ms，{z2}开销可忽略。",
    "在 {data} 上，{name} 的{z0} {metric} 达到 {pct}，比 {base} 高 {pt} 个百分点，{z1}{z2}相当。",
    "{z0}{z1}方面，{name} 以 {sec} 秒达到 {pct} {metric}，{z2}比基线快 {k2} 倍。",
    "在 {data} 上 {name} 的{z0}{z1}优于 {base}（{metric} {y} 对 {x}，优势 +{d}），{z2}代价更低。",
    "{z0}{z1}从 {g1} GB 降到 {g2} GB，{z2} {metric} 仍保持在基线的 {pt} 个点以内。",
    "{k} 个{z0}设置下均有一致增益，{data} 上的{z1}{z2}提升最大（{pct}）。",
    "{z0}{z1}与{z2}的相关系数为 {x}，说明{z3}是主要瓶颈。",
    "{name} 的{z0}{z1}在 {k} 个{z2}任务上超过 {base}，{metric} 中位优势为 +{d}。",
    "把{z0}换成{z1}后，{z2}{z3}下降到 {x}，{metric} 基本不变。",
)
EN_QUOTES = (
    "{name} improves {metric} on {data} from {x} to {y} over the {n0} baseline {base}.",
    "The {adj} {n0} reaches a median {metric} of {x} [{lo}, {hi}] over the {k} {n1} "
    "benchmarks that admit it.",
    "Compared with {base}, {name} raises {metric} from {x} to {y} and reduces {n0} {n1} from "
    "{g1} GB to {g2} GB.",
    "Under our current configuration, the {adj} {n0} {n1} achieves relatively optimal {n2} "
    "with {k2} {n3} steps.",
    "On {data}, {name} attains {pct} {metric} at {ms} ms of {n0} latency per {n1}.",
    "All {n0} runs use a single node of {k} {gpu} GPUs, and the {n1} {n2} is updated every "
    "{k2} steps.",
    "Replacing the {n0} {n1} with the original {n2} instruction increases the gap to {pt} points.",
    "Without seeing any label, the {adj} {n0} exceeds the better of {n1} length and an "
    "in-domain {n2} baseline by a median of +{d}.",
    "{name} reaches {pct} {metric} at {sec}s, outperforming {base} while being {k2}x faster "
    "on {n0} {n1}.",
    "Ablating the {adj} {n0} lowers {metric} by {pt} points, which suggests that {n1} {n2} "
    "matters more than {n3} size.",
    "Peak {n0} memory drops from {g1} GB to {g2} GB, while {metric} stays within {pt} points "
    "of the {n1} baseline.",
    "We observe consistent gains across {k} {n0} settings, with the largest improvement on "
    "{data} ({pct}).",
    "the full fine-tuned {n0} improves {metric} on {data} from {x} to {y} and {n1} {n2} from "
    "{lo} to {hi}",
    "Its {adj} {n0} {n1} is {x} versus {y} for {base}, a difference of {d} {metric}.",
)
# Prose for every other paragraph. Safe in a positioning paragraph: no token here follows
# or precedes a naming cue (提出, 核心产物是, `X 是` …), so the parser names only the method.
ZH_PROSE = (
    "与 {base} 相比，{z0}{z1}在{z2}上更稳定，{e0} 的方差也更小。",
    "作者以 {base} 为基座，在 {data} 上验证{z0}{z1}的效果。",
    "{z0}{z1}近年快速发展，但{z2}常出现{z3}问题，仅靠扩大{z0}不直接针对这些失败模式。",
    "核心设计是把{z0}与{z1}解耦：同一{z2}换{z3}，从而区分误差来自 {e0} 还是来自{z1}。",
    "实验覆盖 {k} 个{z0}任务与 {k2} 种{z1}设置，主要指标为 {metric}。",
    "消融表明{z0}{z1}贡献最大，去掉后 {metric} 明显下降。",
    "在 {data} 上，{metric} 从 {x} 提升到 {y}，{z0}开销基本不变。",
    "训练在 {k} 张 {gpu} 上完成，{z0}{z1}约为每步 {ms} ms。",
    "作者指出现有{z0}路线有三个困难：{z1}纠缠、{z2}污染与{z3}代价。",
    "总体来看，{z0}在{z1}与{z2}之间存在权衡，{e0} 的选择影响较大。",
    "这一设计既有{z0}意义（{z1}归因）又有{z2}意义（{z3}），概念上比简单拼接 {base} 更完整。",
    "理论部分假设{z0}满足{z1}条件，但实际{z2}只是有限样本下的近似。",
    "需要注意的是，主表衡量的是{z0}{z1}，而非完整{z2}的端到端对比。",
    "对每个 {e0} 采样成组的{z0}，分别评测{z1}、{z2}与{z3}，再聚合成组内相对优势。",
    "论文报告 {metric} 为 {pct}，但未给出{z0}{z1}的置信区间。",
    "{z0}{z1}仍是部署中的主要瓶颈，尤其是在{z2}受限的{z3}场景。",
)
EN_PROSE = (
    "{adj} {n0} has become a central component of {n1} post-training, yet its relationship "
    "to {n2} remains unclear.",
    "Existing {n0} methods rely on {adj} {n1} signals, which makes {n2} {n3} fragile under "
    "distribution shift.",
    "We decouple the {n0} into two parts: {adj} {n1} weights and lightweight {n2} weights "
    "trained with a {n3} objective.",
    "Experiments on {data} show that the approach improves {metric} from {x} to {y} while "
    "reducing {n0} latency by {pct}.",
    "Our analysis reveals that {n0} {n1} is bidirectional: {n2} can influence {n3}, and the "
    "reverse also holds.",
    "Across {k} benchmarks, the {adj} {n0} outperforms {base} on {metric} and matches it on "
    "{n1} {n2}.",
    "This characterization provides a unified basis for explaining {n0} phenomena across "
    "existing {n1} algorithms.",
    "We release code, {n0} checkpoints and the {data} evaluation suite to support future "
    "{n1} research.",
    "The challenge is to form reusable {n0} {n1} without compromising real-time {n2}.",
    "Training uses {k} {gpu} GPUs and converges in {k2} hours, with peak {n0} memory of {g1} GB.",
    "In contrast to prior {n0} work, we treat {n1} as a first-class {n2} signal rather than "
    "a by-product of {n3}.",
    "Ablations confirm that each {adj} component contributes, with the {n0} {n1} accounting "
    "for most of the {metric} gain.",
)
# The first sentence of a deep read introduces its method the ways the seeds do.
POSITIONING = (
    "本文提出 {name}（{full}），一个面向{z0}{z1}的{z2}框架。",
    "{name} 是一篇面向{z0}的{z1}改进论文，定位在“{z2}”与“{z3}”两条路线之间。",
    "本文定位在“{z0}{z1}的{z2}”这一环节，而非改进{z3}或预训练。"
    "{name} 的核心主张是“把{z0}拆成一组交替的{z1}子问题”。",
    "本文把自己定位为一次面向{z0}{z1}的工程实践：其核心产物是 {name}——由{z2}与{z3}组成的完整系统。",
    "本文定位为{z0}{z1}的评估与基准工作，并贡献 {name}：覆盖 {k} 类{z2}、{k2} 个基准。",
)
MECHANISM_LEADS = (
    "{name} 建立在 {base} 之上：",
    "方法层面，{name} 把{z0}与{z1}分开处理。",
    "{name} 不一次更新全部{z0}，而是逐{z1}施加更新。",
)
EXPERIMENT_LEADS = (
    "主实验在 {data} 上对比 {base} 与 {name}，覆盖 LoRA 与全量微调。",
    "实验部分首先在 {data} 上评估 {name} 的{z0}，随后检验{z1}。",
)
ABSTRACT_NAMED = (
    "We introduce {name}, a {adj} {n0} method that couples {n1} with {n2}.",
    "To overcome this bottleneck, we propose {name}, which learns {adj} {n0} from {n1} alone.",
)
# No cue before the name: the parser leaves these abstract-only entries unnamed.
ABSTRACT_UNNAMED = "This paper revisits {adj} {n0} through the lens of the {name} protocol."


def _compile(templates: Sequence[str]) -> tuple[str, ...]:
    """Named fields to positions: `format(*bundle)` is faster than building a dict."""
    positions = {name: f"{{{index}}}" for index, name in enumerate(_FIELDS)}
    return tuple(template.format_map(positions) for template in templates)


_ZH_CLAIMS, _EN_QUOTES = _compile(ZH_CLAIMS), _compile(EN_QUOTES)
_ZH_PROSE, _EN_PROSE = _compile(ZH_PROSE), _compile(EN_PROSE)
_POSITIONING, _MECHANISM_LEADS = _compile(POSITIONING), _compile(MECHANISM_LEADS)
_EXPERIMENT_LEADS, _ABSTRACT_NAMED = _compile(EXPERIMENT_LEADS), _compile(ABSTRACT_NAMED)
(_ABSTRACT_UNNAMED,) = _compile([ABSTRACT_UNNAMED])
_QUOTE_EXTRA = (0, 0, 0, 1, 1, 2)  # a quote is 1–3 sentences, mostly one
_PROSE_PARAGRAPHS = (1, 2, 3, 3, 3, 3)  # some deep reads leave sections out

T = TypeVar("T")


def _pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[int(rng.random() * len(items))]


def _between(rng: random.Random, low: int, high: int) -> int:
    return low + int(rng.random() * (high - low + 1))  # randint, at a third of the cost


def _draw(rng: random.Random, words: Sequence[str], size: int, s: float, q: float) -> list[str]:
    """`size` words drawn by Zipf–Mandelbrot, weight 1 / (rank + q)^s: q > 0 flattens the
    head, so that the first few words are all common, not just the first."""
    return rng.choices(words, [1.0 / (rank + q) ** s for rank in range(len(words))], k=size)


def _numbers(random_: Callable[[], float]) -> tuple[str, ...]:
    """x, y, lo, hi, pct, pt, k, k2, g1, g2, ms, sec, d: one claim's numbers."""
    x, y = sorted((0.3 + 0.7 * random_(), 0.3 + 0.7 * random_()))
    g1 = 16 + int(64 * random_())
    return (
        f"{x:.3f}",
        f"{y:.3f}",
        f"{max(0.0, x - 0.08 * random_()):.3f}",
        f"{min(0.999, y + 0.08 * random_()):.3f}",
        f"{40 + 60 * random_():.2f}%",
        f"{0.5 + 20 * random_():.1f}",
        str(2 + int(62 * random_())),
        str(2 + int(10 * random_())),
        str(g1),
        str(4 + int((g1 - 6) * random_())),
        f"{1 + 300 * random_():.1f}",
        f"{0.05 + 3 * random_():.2f}",
        f"{0.001 + 0.2 * random_():.3f}",
    )


class _Material:
    """Everything drawn once per seed: word streams, facts and sentence pools.

    Words are pre-drawn into long streams; a sentence takes a window at a random offset
    (one random number and a slice, whatever the vocabulary) and windows keep each word's
    share. A bundle, in `_FIELDS` order, is the paper's name, a fact (metric, dataset,
    baseline, GPU, numbers) and such windows. Claims get fresh bundles, as they are what
    the search benchmark queries; other prose comes from pools of pre-built sentences."""

    STREAM = 1 << 18

    def __init__(self, seed: int) -> None:
        rng = random.Random(f"paperbot-bench:{seed}:material")
        self.nouns = _draw(rng, EN_NOUNS, self.STREAM, 1.1, 2.2)
        self.zh = _draw(rng, ZH_WORDS, self.STREAM, 1.5, 3.5)
        self.adjectives = _draw(rng, EN_ADJECTIVES, self.STREAM, 1.0, 1.0)
        numbers = [_numbers(rng.random) for _ in range(1 << 14)]
        columns = [
            _draw(rng, words, 1 << 16, 1.0, q)
            for words, q in ((METRICS, 0.9), (DATASETS, 1.0), (BASELINES, 1.0), (GPUS, 1.0))
        ]
        self.facts = [  # laid out like _FIELDS after the name; "" holds the full name's place
            (*entities, "", *numbers[i % len(numbers)])
            for i, entities in enumerate(zip(*columns, strict=True))
        ]
        self.zh_prose = self._pool(rng, _ZH_PROSE, "")
        self.en_prose = self._pool(rng, _EN_PROSE, "", capitalise=True)
        self.en_quotes = self._pool(rng, _EN_QUOTES, "our method", capitalise=True)

    def bundle(self, rng: random.Random, name: str, full: str = "") -> list[str]:
        random_ = rng.random
        fact = self.facts[int(random_() * len(self.facts))]
        start = int(random_() * (self.STREAM - 8))
        return [
            name,
            *fact[:4],
            full,
            *fact[5:],
            *self.nouns[start : start + 5],
            self.adjectives[start],
            *self.zh[start : start + 4],
        ]

    def _pool(
        self, rng: random.Random, templates: Sequence[str], name: str, *, capitalise: bool = False
    ) -> list[str]:
        sentences = (_pick(rng, templates).format(*self.bundle(rng, name)) for _ in range(1 << 14))
        return [s[0].upper() + s[1:] if capitalise else s for s in sentences]

    @staticmethod
    def window(rng: random.Random, pool: list[str], low: int, high: int) -> list[str]:
        start = int(rng.random() * (len(pool) - high))
        return pool[start : start + _between(rng, low, high)]

    def zh_text(self, rng: random.Random, low: int, high: int) -> str:
        return "".join(self.window(rng, self.zh_prose, low, high))

    def en_text(self, rng: random.Random, low: int, high: int) -> str:
        return " ".join(self.window(rng, self.en_prose, low, high))


# Names, rare words and arXiv IDs are functions of an index: unique by construction, and
# `benchmark_queries` can name papers without generating any text.
_NAME_SPACE = len(NAME_HEADS) * len(NAME_TAILS) * len(NAME_CORES) * len(NAME_SUFFIXES)
_RARE_EN_SPACE = len(RARE_SYLLABLES) ** 3 * len(RARE_ENDINGS)
_RARE_ZH_SPACE = len(RARE_ZH_CHARS) ** 3
_STEP = 7919  # a prime dividing none of the spaces: index -> slot is a permutation
RARE_SHARE_EN, RARE_SHARE_ZH, RARE_REPEAT = 0.2, 0.15, 8


def method_name(index: int, seed: int = DEFAULT_SEED) -> str:
    """The unique name of paper `index` (global, 0-based), like `VelixFlow-GRPO`."""
    slot = (index * _STEP + seed) % _NAME_SPACE
    slot, suffix = divmod(slot, len(NAME_SUFFIXES))
    slot, core = divmod(slot, len(NAME_CORES))
    head, tail = divmod(slot, len(NAME_TAILS))
    extra = str(index // _NAME_SPACE + 1) if index >= _NAME_SPACE else ""
    return f"{NAME_HEADS[head]}{NAME_TAILS[tail]}{NAME_CORES[core]}-{NAME_SUFFIXES[suffix]}{extra}"


def rare_word(index: int) -> str:
    """Rare English word `index`, like `torvimfelode` (a permutation, so all distinct)."""
    slot = (index * _STEP) % _RARE_EN_SPACE
    slot, ending = divmod(slot, len(RARE_ENDINGS))
    slot, c = divmod(slot, len(RARE_SYLLABLES))
    a, b = divmod(slot, len(RARE_SYLLABLES))
    return RARE_SYLLABLES[a] + RARE_SYLLABLES[b] + RARE_SYLLABLES[c] + RARE_ENDINGS[ending]


def rare_zh_word(index: int) -> str:
    """Rare Chinese word `index`: three characters seldom seen in papers."""
    slot, size = (index * _STEP) % _RARE_ZH_SPACE, len(RARE_ZH_CHARS)
    return "".join(RARE_ZH_CHARS[slot // size**power % size] for power in (2, 1, 0))


def _rare_counts(papers: int, claims_per_paper: float) -> tuple[int, int]:
    """How many rare words exist: each planted one lands in about RARE_REPEAT claims."""
    claims = claims_per_paper * papers
    return (
        min(_RARE_EN_SPACE, max(16, int(claims * RARE_SHARE_EN / RARE_REPEAT))),
        min(_RARE_ZH_SPACE, max(16, int(claims * RARE_SHARE_ZH / RARE_REPEAT))),
    )


def _claims_range(papers: int, deep_reads: int, claims_per_paper: float) -> tuple[int, int]:
    """Claims per deep read, uniform from about 0.55 to 1.45 times the mean that gives the
    corpus `claims_per_paper` claims per paper (13 / 0.35 ≈ 37 by default)."""
    mean = claims_per_paper * papers / max(deep_reads, 1)
    low = max(1, round(mean * 0.55))
    return low, max(low, round(mean * 1.45))


def arxiv_id(index: int, day: date) -> str:
    """`YYMM.NNNNN` from the digest's month; unique while a month holds < 100,000 entries."""
    return f"{day.year % 100:02d}{day.month:02d}.{(index * _STEP + 4099) % 100_000:05d}"


@dataclass(frozen=True)
class _File:
    index: int
    format: str
    day: date
    first: int  # global index of the file's first paper
    kinds: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"bench_{self.index:06d}.txt"


def _split(total: int, parts: int, part: int) -> int:
    return total * (part + 1) // parts - total * part // parts


def _plan(papers: int, papers_per_file: int, seed: int) -> list[_File]:
    """The files, in order: deep-read and HuggingFace files alternate, one day apart, each
    kind spread evenly (with the 55/45 split a HuggingFace file holds a few more papers)."""
    huggingface = round(papers * SHARE_HUGGINGFACE)
    abstract_only = round(papers * SHARE_ABSTRACT_ONLY)
    deep = papers - huggingface - abstract_only
    pairs = max(1, math.ceil(papers / (2 * papers_per_file)))
    files: list[_File] = []
    first = 0
    for pair in range(pairs):
        kinds = [DEEP_READ] * _split(deep, pairs, pair)
        kinds += [ABSTRACT_ONLY] * _split(abstract_only, pairs, pair)
        random.Random(f"paperbot-bench:{seed}:order:{pair}").shuffle(kinds)
        for offset, chosen in ((0, kinds), (1, [HUGGINGFACE] * _split(huggingface, pairs, pair))):
            index = 2 * pair + offset
            day = START_DAY + timedelta(days=index)
            if chosen:  # a tiny corpus may leave a day empty
                fmt = HUGGINGFACE if offset else DEEP_READ
                files.append(_File(index, fmt, day, first, tuple(chosen)))
            first += len(chosen)
    return files


@dataclass
class _Rendered:
    """What one file holds, for the manifest (papers in file order)."""

    bytes: int = 0
    claims: int = 0
    deep_read_names: list[str] = field(default_factory=list)
    abstract_only_names: list[str | None] = field(default_factory=list)
    arxiv_ids: list[str] = field(default_factory=list)


class _Writer:
    """Renders the files of one corpus; a pure function of (seed, plan) per file, so files
    can be written in any order, by any number of processes, to the same bytes."""

    def __init__(self, seed: int, papers: int, deep_reads: int, claims_per_paper: float):
        self.seed = seed
        self.material = _Material(seed)
        self.rare_en, self.rare_zh = _rare_counts(papers, claims_per_paper)
        self.claims_low, self.claims_high = _claims_range(papers, deep_reads, claims_per_paper)

    def write(self, outdir: Path, plan: _File) -> _Rendered:
        rendered = _Rendered()
        if plan.format == DEEP_READ:
            text = self.deep_read_file(plan, rendered)
        else:
            text = self.huggingface_file(plan, rendered)
        data = _encode(text, plan.index)
        (outdir / plan.name).write_bytes(data)
        rendered.bytes = len(data)
        return rendered

    def paper_rng(self, index: int) -> random.Random:
        return random.Random(f"paperbot-bench:{self.seed}:paper:{index}")

    def deep_read_file(self, plan: _File, rendered: _Rendered) -> str:
        paragraphs = [plan.day.isoformat()]
        for index, kind in enumerate(plan.kinds, plan.first):
            if kind == DEEP_READ:
                paragraphs += self.deep_read(index, rendered)
            else:
                paragraphs += self.abstract_only(index, rendered)
        return "\n\n".join(paragraphs) + "\n"

    def deep_read(self, index: int, rendered: _Rendered) -> list[str]:
        rng, m = self.paper_rng(index), self.material
        name = method_name(index, self.seed)
        words = (_pick(rng, FULL_NAME_WORDS), _pick(rng, FULL_NAME_WORDS))
        full = f"{words[0]} {words[1]} {_pick(rng, FULL_NAME_NOUNS)}"  # the （Full Name） cue
        bundle = m.bundle(rng, name, full)
        paragraphs = [_pick(rng, _POSITIONING).format(*bundle) + m.zh_text(rng, 1, 2)]
        prose = _pick(rng, _PROSE_PARAGRAPHS)
        if prose >= 3:
            paragraphs.append(m.zh_text(rng, 2, 3))
        if prose >= 2:
            paragraphs.append(_pick(rng, _MECHANISM_LEADS).format(*bundle) + m.zh_text(rng, 3, 5))
        paragraphs.append(_pick(rng, _EXPERIMENT_LEADS).format(*bundle) + m.zh_text(rng, 1, 2))
        count = _between(rng, self.claims_low, self.claims_high)
        paragraphs += [self.claim(rng, number, name) for number in range(1, count + 1)]
        paragraphs.append(
            f"Novelty：新颖性{_pick(rng, LEVELS)}。{m.zh_text(rng, 1, 2)} "
            f"Soundness：严谨性{_pick(rng, LEVELS)}。{m.zh_text(rng, 1, 2)} "
            f"Significance：显著性{_pick(rng, LEVELS)}。{m.zh_text(rng, 1, 1)}"
        )
        # Always both tail paragraphs: the parser gives a deep read the two plain paragraphs
        # after its review, so a missing one would take the next paper's positioning.
        paragraphs.append("论文自身承认的局限包括：" + m.zh_text(rng, 2, 3))
        steps = m.window(rng, m.zh_prose, 2, 4)
        steps = [f"({'abcd'[i]}) {step}" for i, step in enumerate(steps)]
        paragraphs.append("后续工作可沿以下方向推进：" + "".join(steps))
        rendered.deep_read_names.append(name)
        rendered.claims += count
        return paragraphs

    def claim(self, rng: random.Random, number: int, name: str) -> str:
        """`N. <Chinese claim>` and its English quote: the hot loop (1.3 million times).
        The quote's first sentence shares the claim's numbers; more come from the pool."""
        m, random_ = self.material, rng.random
        bundle = m.bundle(rng, name)
        if random_() < RARE_SHARE_ZH:
            bundle[_ZH_AT] = rare_zh_word(int(random_() * self.rare_zh))
        text = _ZH_CLAIMS[int(random_() * len(_ZH_CLAIMS))].format(*bundle)
        if random_() < RARE_SHARE_EN:
            bundle[_NOUNS_AT] = rare_word(int(random_() * self.rare_en))
        quote = _EN_QUOTES[int(random_() * len(_EN_QUOTES))].format(*bundle)
        if extra := _QUOTE_EXTRA[int(random_() * len(_QUOTE_EXTRA))]:
            start = int(random_() * (len(m.en_quotes) - 2))
            quote = " ".join([quote, *m.en_quotes[start : start + extra]])
        if len(quote) > 100 and random_() < 0.6:
            quote = _wrap(quote, 72 + int(random_() * 28))
        # Mostly as in the seeds, quote after a blank line; sometimes right under the claim.
        gap = "\n   " if random_() < 0.1 else "\n\n   "
        return f"{number}. {text}{gap}{quote}"

    def abstract_only(self, index: int, rendered: _Rendered) -> list[str]:
        rng, m = self.paper_rng(index), self.material
        name = method_name(index, self.seed)
        named = rng.random() < 0.5  # the seeds name half of them
        lead = _pick(rng, _ABSTRACT_NAMED) if named else _ABSTRACT_UNNAMED
        text = f"{m.en_text(rng, 2, 3)} {lead.format(*m.bundle(rng, name))} {m.en_text(rng, 6, 8)}"
        rendered.abstract_only_names.append(name if named else None)
        return [text[:1000], NOTE]  # the digest cuts abstracts at 1,000 characters

    def huggingface_file(self, plan: _File, rendered: _Rendered) -> str:
        header = f"HuggingFace Papers {plan.day.isoformat()}"
        entries = [header, "数据来源：HuggingFace Papers", "Latest Papers"]
        contents = [header, "Latest Papers"]  # the repeated header and table of contents
        strays = random.Random(f"paperbot-bench:{self.seed}:strays:{plan.index}")
        for number, index in enumerate(range(plan.first, plan.first + len(plan.kinds)), 1):
            entry, title = self.huggingface(index, number, plan.day, rendered)
            entries.append(entry)
            contents.append(f"{number}. {title}")
            if strays.random() < 0.1:  # stray lines from the analyses, as in real files
                contents.append(self.material.zh_text(strays, 1, 1))
        return "\n\n".join(entries + contents) + "\n"

    def huggingface(
        self, index: int, number: int, day: date, rendered: _Rendered
    ) -> tuple[str, str]:
        rng, m = self.paper_rng(index), self.material
        name = method_name(index, self.seed)
        title, written = _huggingface_head(rng, name, arxiv_id(index, day))
        bundle = m.bundle(rng, name)
        abstract = f"{m.en_text(rng, 2, 4)} {_pick(rng, _ABSTRACT_NAMED).format(*bundle)}"
        target = 1000 + 650 * rng.random()  # 1,000–1,800 characters, a sentence at a time
        while len(abstract) < target:
            abstract += " " + m.en_text(rng, 1, 1)
        clock = f"T02:{_between(rng, 10, 59)}:{_between(rng, 10, 59)}.{_between(rng, 100, 999)}Z"
        people = range(_between(rng, 2, 14))
        authors = ",".join(f"{_pick(rng, FIRST_NAMES)} {_pick(rng, LAST_NAMES)}" for _ in people)
        categories = ", ".join(rng.sample(CATEGORIES, _pick(rng, (0, 0, 0, 1, 2, 3))))
        bare = arxiv_id(index, day)
        meta = [
            f"Authors: {authors}",
            f"Categories: {categories}".rstrip(),
            f"PDF URL: https://arxiv.org/pdf/{written}.pdf",
            f"Arxiv URL: https://arxiv.org/abs/{written}",
            f"Arxiv ID: {written}",
            f"CoolPaper URL: https://papers.cool/arxiv/{bare}",
            f"Published: {day.isoformat()}{clock}",
            f"Updated: {day.isoformat()}{clock}",
        ]
        # Any metadata line may be missing; the abs URL stays, so every entry has its ID.
        meta = [line for line in meta if line.startswith("Arxiv URL") or rng.random() > 0.08]
        rendered.arxiv_ids.append(written)
        z0, z1, z2 = bundle[_ZH_AT : _ZH_AT + 3]
        analysis = "\n".join(  # noisy, as in real files: markdown escapes, cut citations
            [
                f"Q: 这篇论文试图解决什么问题？这篇论文针对\\*\\*{z0}{z1}中的{z2}问题\\*\\*，"
                + m.zh_text(rng, 1, 2),
                "",
                m.zh_text(rng, 1, 1).rstrip("。"),
                str(_between(rng, 1, 48)),
                f"、{bundle[_FIELDS.index('base')]}",
                str(_between(rng, 1, 48)),
                f"等，{m.zh_text(rng, 1, 2)}",
                "",
                f"L({bundle[_NOUNS_AT]}) = -(1) / (|I|) ∑(i ∈ I) log pθ(z_i mid c_i)",
                f"Q2: 有哪些相关研究？{m.zh_text(rng, 2, 4)}",
                "",
                f"Q3: 论文做了哪些实验？{m.zh_text(rng, 2, 4)}",
            ]
        )
        zh = f"我们提出了 {name}，{m.zh_text(rng, 6, 10)}"
        parts = [f"{number}. {title}", f"Abstract:{abstract}", "中文摘要", f"摘要：{zh}"]
        return "\n\n".join([*parts, "LLM Analysis", analysis, *meta]), title


def _huggingface_head(rng: random.Random, name: str, identifier: str) -> tuple[str, str]:
    """Title and arXiv ID as written: an entry's first draws, so `benchmark_queries` can
    rebuild them without the rest."""
    a, b = rng.sample(TITLE_NOUNS, 2)
    adjective, area = _pick(rng, FULL_NAME_WORDS), _pick(rng, TITLE_AREAS)
    gerund = _pick(rng, TITLE_GERUNDS)
    title = _pick(
        rng,
        (
            f"{name}: {gerund} {a} and {b} for {area}",
            f"{name}: Towards {adjective} {a} in {area}",
            f"{adjective} {a} for {area} with {name}",
            f"{name}: A Systematic Study of {a} and {b}",
            f"{a} or {b}? {name} and {adjective} {area}",
            f"{name}: {adjective} {a} via {b}",
        ),
    )
    version = rng.random()  # some IDs are given with a version, as on arXiv
    return title, identifier + ("v2" if version < 0.15 else "v3" if version < 0.2 else "")


def _wrap(text: str, width: int) -> str:
    """Break an English quote into indented lines at spaces (the caller indents line 1)."""
    lines: list[str] = []
    while len(text) > width and (cut := text.rfind(" ", 0, width)) > 0:
        lines.append(text[:cut])
        text = text[cut + 1 :]
    lines.append(text)
    return "\n   ".join(lines)


def _encode(text: str, index: int) -> bytes:
    """Some files come as real exports do: with a BOM, CRLF line ends, trailing spaces."""
    if index % 5 == 3:
        text = text.replace("\n", " \r\n")
    data = text.encode("utf-8")
    return b"\xef\xbb\xbf" + data if index % 7 == 1 else data


@dataclass
class Manifest:
    """What a corpus holds; written as `manifest.json` beside the files."""

    seed: int
    papers: int
    papers_per_file: int
    claims_per_paper: float
    generator_version: str = GENERATOR_VERSION
    files: int = 0
    bytes: int = 0
    first_day: str = ""
    last_day: str = ""
    papers_by_kind: dict[str, int] = field(default_factory=dict)
    claims: int = 0
    claims_per_deep_read: dict[str, float] = field(default_factory=dict)
    rare_words: dict[str, int] = field(default_factory=dict)
    # In corpus order: each deep read's name, each abstract-only entry's name (None where
    # the text gives none), each HuggingFace entry's arXiv ID as written (maybe `v2`).
    deep_read_names: list[str] = field(default_factory=list)
    abstract_only_names: list[str | None] = field(default_factory=list)
    arxiv_ids: list[str] = field(default_factory=list)
    file_list: list[dict[str, object]] = field(default_factory=list)


_worker: tuple[_Writer, Path] | None = None  # in a worker process: built once


def _start_worker(seed: int, papers: int, deep: int, claims_per_paper: float, outdir: Path) -> None:
    global _worker
    _worker = (_Writer(seed, papers, deep, claims_per_paper), outdir)


def _write_in_worker(plan: _File) -> _Rendered:
    assert _worker is not None
    writer, outdir = _worker
    return writer.write(outdir, plan)


def ensure_corpus(workdir: Path, papers: int) -> Path:
    """`workdir/corpus-N`, generated unless a corpus of that size is there already."""
    corpus = workdir / f"corpus-{papers}"
    manifest = corpus / "manifest.json"
    if not manifest.exists() or json.loads(manifest.read_text())["papers"] != papers:
        generate_corpus(corpus, papers, jobs=os.cpu_count() or 1)
    return corpus


def generate_corpus(
    outdir: Path,
    papers: int,
    *,
    seed: int = DEFAULT_SEED,
    papers_per_file: int = DEFAULT_PAPERS_PER_FILE,
    claims_per_paper: float = CLAIMS_PER_PAPER,
    jobs: int = 1,
) -> Manifest:
    """Write the corpus file by file (memory stays flat) and `manifest.json`; return the
    manifest. With `jobs` > 1, files are rendered in that many processes, to the same bytes."""
    if papers < 1 or papers_per_file < 1 or claims_per_paper <= 0:
        raise ValueError("papers, papers_per_file and claims_per_paper must be positive")
    outdir.mkdir(parents=True, exist_ok=True)
    for stale in outdir.glob("bench_*.txt"):  # a previous, larger run must not leak in
        if re.fullmatch(r"bench_[0-9]{6}\.txt", stale.name):
            stale.unlink()
    plan = _plan(papers, papers_per_file, seed)
    counts = {kind: sum(f.kinds.count(kind) for f in plan) for kind in KINDS}
    setup = (seed, papers, counts[DEEP_READ], claims_per_paper)
    manifest = Manifest(seed, papers, papers_per_file, claims_per_paper, papers_by_kind=counts)
    if jobs > 1:
        with ProcessPoolExecutor(
            jobs, initializer=_start_worker, initargs=(*setup, outdir)
        ) as pool:
            _collect(manifest, plan, pool.map(_write_in_worker, plan))
    else:
        writer = _Writer(*setup)
        _collect(manifest, plan, (writer.write(outdir, item) for item in plan))
    low, high = _claims_range(*setup[1:])
    deep = counts[DEEP_READ]
    mean = round(manifest.claims / max(deep, 1), 2)
    manifest.claims_per_deep_read = {"low": low, "high": high, "mean": mean}
    manifest.rare_words = dict(
        zip(("en", "zh"), _rare_counts(papers, claims_per_paper), strict=True)
    )
    manifest.first_day, manifest.last_day = plan[0].day.isoformat(), plan[-1].day.isoformat()
    text = json.dumps(vars(manifest), ensure_ascii=False, indent=1)
    (outdir / "manifest.json").write_text(text + "\n", encoding="utf-8")
    return manifest


def _collect(manifest: Manifest, plan: list[_File], results: Iterable[_Rendered]) -> None:
    for item, rendered in zip(plan, results, strict=True):
        manifest.files += 1
        manifest.bytes += rendered.bytes
        manifest.claims += rendered.claims
        manifest.deep_read_names += rendered.deep_read_names
        manifest.abstract_only_names += rendered.abstract_only_names
        manifest.arxiv_ids += rendered.arxiv_ids
        manifest.file_list.append(
            {
                "file": item.name,
                "format": item.format,
                "date": item.day.isoformat(),
                "papers": len(item.kinds),
                "claims": rendered.claims,
                "bytes": rendered.bytes,
            }
        )


class Queries(NamedTuple):
    """Benchmark inputs, each `(kind, text)`: `paper` for /paper, `claims` for /claims."""

    paper: list[tuple[str, str]]
    claims: list[tuple[str, str]]


def benchmark_queries(
    papers: int,
    *,
    seed: int = DEFAULT_SEED,
    papers_per_file: int = DEFAULT_PAPERS_PER_FILE,
    claims_per_paper: float = CLAIMS_PER_PAPER,
) -> Queries:
    """A deterministic mix of queries for the corpus these arguments generate: names and
    IDs that exist, words from every band of the frequency law, numbers that occur, and
    some that match nothing. Rebuilds the plan and the material, writes no text."""
    plan = _plan(papers, papers_per_file, seed)
    indices: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for item in plan:
        for index, kind in enumerate(item.kinds, item.first):
            indices[kind].append(index)
    days = {f.first + i: f.day for f in plan for i in range(len(f.kinds))}
    names = [method_name(index, seed) for index in _spread(indices[DEEP_READ], 40)]
    heads: list[tuple[str, str, str]] = []  # title, ID as written, ID without version
    for index in _spread(indices[HUGGINGFACE], 40):
        bare = arxiv_id(index, days[index])
        rng = random.Random(f"paperbot-bench:{seed}:paper:{index}")
        heads.append((*_huggingface_head(rng, method_name(index, seed), bare), bare))

    paper = [("name", name) for name in names[:30]]
    paper += [("name_lowercase", name.lower()) for name in names[30:]]
    abstract_only = _spread(indices[ABSTRACT_ONLY], 5)
    paper += [("name_abstract_only", method_name(index, seed)) for index in abstract_only]
    paper += [("arxiv_id", bare) for *_, bare in heads[:20]]
    paper += [
        ("arxiv_id_version", f"{bare}v{2 + i % 2}") for i, (*_, bare) in enumerate(heads[20:30])
    ]
    paper += [("arxiv_url", f"https://arxiv.org/abs/{written}") for _, written, _ in heads[30:]]
    paper += [("title", title) for title, *_ in heads[:10]]
    paper += [("title_words", " ".join(title.split()[-2:])) for title, *_ in heads[10:20]]
    paper += [("words", word) for word in (*EN_NOUNS[:5], *ZH_WORDS[:5])]
    paper += [("none", text) for text in NO_MATCH_PAPERS]

    sample = random.Random(f"paperbot-bench:{seed}:queries").sample(_Material(seed).facts, 10)
    facts = [("", *fact) for fact in sample]  # indexed like _FIELDS
    x, pct, y = (_FIELDS.index(f) for f in ("x", "pct", "y"))
    rare_en, rare_zh = _rare_counts(papers, claims_per_paper)
    claims = [("common_en", word) for word in (*EN_NOUNS[:8], "AUROC", "F1")]
    claims += [("common_en_case", word) for word in ("Model", "ACCURACY", "auroc", "Latency")]
    claims += [("common_zh", word) for word in ZH_WORDS[:12]]
    claims += [("mid_en", word) for word in EN_NOUNS[30:40]]
    claims += [("mid_zh", word) for word in ZH_WORDS[30:40]]
    claims += [("tail_en", word) for word in EN_NOUNS[-5:]]
    claims += [("tail_zh", word) for word in ZH_WORDS[-5:]]
    claims += [("number", fact[i]) for fact in facts for i in (x, pct)]  # 0.886, 86.20%
    claims += [("metric_number", f"AUROC {fact[y]}") for fact in facts[:5]]
    claims += [("rare_en", rare_word(i)) for i in _spread(list(range(rare_en)), 10)]
    claims += [("rare_zh", rare_zh_word(i)) for i in _spread(list(range(rare_zh)), 10)]
    claims += [("mixed", query) for query in MIXED_QUERIES]
    pairs = zip(EN_NOUNS[:5], EN_NOUNS[5:10], strict=True)
    claims += [("two_words_en", f"{a} {b}") for a, b in pairs]
    claims += [("baseline", name) for name in BASELINES[:8]]
    claims += [("dataset", name) for name in DATASETS[:5]]
    claims += [("method", name) for name in names[:5]]
    since, until = START_DAY + timedelta(days=10), START_DAY + timedelta(days=40)
    scoped = zip(("latency", "模型", "延迟"), names[::-7], strict=False)  # tiny corpora: fewer
    claims += [("filtered", f"{word} paper:{name}") for word, name in scoped]
    claims += [
        ("filtered", f"显存 since:{since}"),
        ("filtered", f"AUROC until:{until}"),
        ("filtered", f"accuracy since:{since} until:{until}"),
    ]
    claims += [("none", text) for text in NO_MATCH_CLAIMS]
    return Queries(paper, claims)


MIXED_QUERIES = (
    "延迟 latency", "显存 memory", "模型 AUROC", "训练 accuracy", "推理 model", "显存 GB",
    "延迟 ms", "模型 GRPO", "蒸馏 distillation", "幻觉 hallucination", "量化 latency",
    "数据 GSM8K", "奖励 reward", "对齐 DPO", "校准 ECE",
)  # fmt: skip
NO_MATCH_PAPERS = (
    "Nonexistent-GRPO", "ZZZ-Planner-9B", "1801.99999", "1801.99999v3",
    "https://arxiv.org/abs/1801.99999", "quizzaciously", "不存在的论文标题", "hep-th/9901001",
    "Attention Is All You Need", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
)  # fmt: skip
NO_MATCH_CLAIMS = (
    "quizzaciously", "量子猫咪", "0.12345", "123.45%", "Nonexistent-GRPO",
    "zzyzx flibbertigibbet", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "の",
)  # fmt: skip


def _spread(items: Sequence[T], count: int) -> list[T]:
    """`count` items evenly spread over `items` (all of them if there are fewer)."""
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.benchmarks.corpus",
        description="Write a deterministic synthetic digest corpus for the benchmarks.",
    )
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--papers", type=int, required=True, help="papers in the corpus")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--papers-per-file", type=int, default=DEFAULT_PAPERS_PER_FILE)
    parser.add_argument(
        "--claims-per-paper",
        type=float,
        default=CLAIMS_PER_PAPER,
        help="claims per paper over the corpus, all of them in deep reads (default: %(default)s)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=min(os.cpu_count() or 1, 4),
        help="processes rendering files; the bytes do not depend on it (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    if min(args.papers, args.papers_per_file, args.jobs) < 1 or args.claims_per_paper <= 0:
        parser.error("--papers, --papers-per-file, --claims-per-paper and --jobs must be positive")
    started = time.perf_counter()
    m = generate_corpus(
        args.outdir,
        args.papers,
        seed=args.seed,
        papers_per_file=args.papers_per_file,
        claims_per_paper=args.claims_per_paper,
        jobs=args.jobs,
    )
    seconds = time.perf_counter() - started
    kinds = ", ".join(f"{kind} {count}" for kind, count in m.papers_by_kind.items())
    deep = m.papers_by_kind[DEEP_READ]
    print(f"wrote {m.files} files, {m.bytes / 1e6:.1f} MB, to {args.outdir} in {seconds:.1f} s")
    print(f"papers: {m.papers} ({kinds})")
    print(
        f"claims: {m.claims} ({m.claims / m.papers:.2f} per paper; {m.claims / max(deep, 1):.1f} "
        f"per deep read, {m.claims_per_deep_read['low']:.0f}-{m.claims_per_deep_read['high']:.0f})"
    )
    print(f"days: {m.first_day} .. {m.last_day}; seed {m.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
