# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's deterministic numerics, bit for bit: one copy of each routine.

The calibrators, the metrics, the diagnostics, the random streams and the
faces call these; none of them keeps a copy. Each module ports R 4.2.2's
code operation for operation (C's and Fortran's order of operations,
glibc's ``exp``/``log``), so values are R's to the last bit.

=====================  ==========================================================
module                 R source
=====================  ==========================================================
``_linpack``           LINPACK ``dqrdc2``/``dqrsl``/``dqrls`` (``Cdqrls``) and
                       reference BLAS ``ddot``/``daxpy``/``dscal``/``dnrm2``
``_glm``               ``glm.fit``'s IRLS with ``binomial()`` (logit link,
                       ``family.c``) and its result (:class:`GlmFit`)
``_glm_lockstep``      the same IRLS on K columns at once (one-vs-rest Platt)
``_glm_merged``        the same IRLS loop from per-chunk sums (``X'WX``, ``X'Wz``,
                       deviance), the Dask face's fits
``_optim``             ``optim``: ``vmmin`` (BFGS) and ``Brent_fmin``
``_isoreg``            ``isoreg`` for 0/1 responses (exact PAV), ``approx(rule = 2)``
``_approx``            ``approx1`` (rule 1), ``regularize.values``, ``seq(from, to,
                       length.out)``, ``qlogis``, R's ``NA_real_``
``_lowess``            ``lowess`` (``clowess``)
``_loess_se``          ``predict.loess(se = TRUE)``, one predictor
``_loess``             ``loess`` fitted values, one predictor (``dloess``; its
                       ``dqrdc``/``dqrsl``/``dsvdc`` and ``drotg``)
``_qnorm``             ``qnorm`` (AS 241), on arrays and on one value
``_gamma_base``        ``dnorm``, ``pnorm``, ``qnorm`` with tails and logs,
                       ``lgammafn``, ``stirlerr``, ``bd0``, ``dpois_raw``
``_gamma_dist``        ``pgamma``, ``qgamma``, ``dgamma``, ``pchisq``, ``qchisq``
``_qdiscrete``         ``qbinom``, ``pbinom``, ``qhyper``, ``gammafn``, ``lbeta``
=====================  ==========================================================

What other rooms call is exported here without a leading underscore; the
modules keep their own (private) names. It may import ``rbase``, ``inputs``
(``lowess``'s argument check) and ``_native`` (the compiled twins of the
BLAS loops, the IRLS lines and PAV). See docs/architecture.md.

R equivalent: ``stats`` and ``src/nmath``, ``src/appl`` of R 4.2.2.
"""

from ._approx import R_NA
from ._approx import _approx1 as approx1
from ._approx import _bracket as bracket
from ._approx import _qlogis as qlogis
from ._approx import _regularize as regularize
from ._approx import _seq_len_out as seq_len_out
from ._gamma_base import dnorm, pnorm, qnorm
from ._gamma_dist import dgamma, pchisq, pgamma, qchisq, qgamma
from ._glm import GlmFit, converged, design_matrix, glm_binomial, halve_step, irls_loop
from ._glm import _dev_resids as dev_resids
from ._glm import _exp_eta as exp_eta
from ._glm import _glm_finish as glm_finish
from ._glm import _linkinv as linkinv
from ._glm import _mu_eta as mu_eta
from ._glm import _weighted_loglik as weighted_loglik
from ._glm_lockstep import _glm_irls_columns as glm_irls_columns
from ._glm_merged import MERGE_RULES as GLM_MERGE_RULES
from ._glm_merged import glm_chunk_sums, glm_irls_merged
from ._isoreg import IsoregFit, isoreg
from ._isoreg import _approx_linear as approx_linear
from ._isoreg import _fill_kernels as isoreg_kernels
from ._isoreg import _order_keys as order_keys
from ._isoreg import _pava_binary as pava_binary
from ._isoreg import _sorted_pairs as sorted_pairs
from ._linpack import _DBL_EPS as DBL_EPS
from ._linpack import _EPSILON as GLM_EPSILON
from ._linpack import _MAXIT as GLM_MAXIT
from ._linpack import _axpy as daxpy
from ._linpack import _cdqrls as cdqrls
from ._linpack import _ddot as ddot
from ._linpack import _dnrm2 as dnrm2
from ._linpack import _dqrdc2 as dqrdc2
from ._loess import loess_fitted
from ._loess_se import loess_predictor, loess_with_se
from ._quantile import TYPE8_FUZZ, quantile_r, type8_combine, type8_nppm, type8_positions
from ._lowess import Lowess, lowess
from ._optim import brent_fmin, optim_brent, seq_colsums, vmmin
from ._qdiscrete import pbinom_upper, qbinom_upper, qhyper_upper
from ._qnorm import _qnorm_open as qnorm_open
from ._qnorm import _qnorm_std as qnorm_std
from ._qnorm import qnorm_open1

__all__ = [
    # LINPACK / BLAS
    "DBL_EPS", "cdqrls", "daxpy", "ddot", "dnrm2", "dqrdc2",
    # glm.fit
    "GLM_EPSILON", "GLM_MAXIT", "GLM_MERGE_RULES", "GlmFit", "converged", "design_matrix", "dev_resids",
    "exp_eta", "glm_binomial", "glm_chunk_sums", "glm_finish", "glm_irls_columns", "glm_irls_merged",
    "halve_step", "irls_loop", "linkinv", "mu_eta", "weighted_loglik",
    # optim
    "brent_fmin", "optim_brent", "seq_colsums", "vmmin",
    # isoreg, approx, seq, qlogis
    "IsoregFit", "R_NA", "approx1", "approx_linear", "bracket", "isoreg", "isoreg_kernels", "order_keys",
    "pava_binary", "qlogis", "regularize", "seq_len_out", "sorted_pairs",
    # lowess, loess
    "Lowess", "loess_fitted", "loess_predictor", "loess_with_se",
    # quantile (types 7 and 8)
    "quantile_r", "type8_positions", "type8_combine", "type8_nppm", "TYPE8_FUZZ", "lowess",
    # distributions
    "dgamma", "dnorm", "pbinom_upper", "pchisq", "pgamma", "pnorm", "qbinom_upper", "qchisq", "qgamma",
    "qhyper_upper", "qnorm", "qnorm_open", "qnorm_open1", "qnorm_std",
]
